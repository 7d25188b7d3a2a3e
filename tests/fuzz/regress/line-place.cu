int x = __LINE__;
