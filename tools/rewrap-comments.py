#!/usr/bin/env python3
"""rewrap-comments: comments of C files rewrapped to a column limit, nothing else changed.

clang-format (ReflowComments: false) leaves comments as written; this wraps the lines over the
limit by hand's rules:
  - a line of a comment (block or //) over the limit is broken at its last space before the
    limit; the rest goes to the start of the comment's next line when both lines are prose (no
    list mark, no column alignment of two spaces inside, the same prefix), else to a new line
    with the comment's continuation prefix (" * ", or the next line's own);
  - a comment after code ("x = 1; /* why */") that makes the line too long, where the code alone
    fits, goes on its own lines above the code at the code's indentation.
Lines inside macros (ending in a backslash), comments that begin after code and go on past the
line, strings, and words longer than the room (addresses) are left as they are. Every file is
checked after: its tokens with the comments removed (cc -fpreprocessed -E) must be the same
as before, else it is left unchanged and named.
usage: tools/rewrap-comments.py [--limit N] [--check] FILE...
  --check: change nothing, print the lines that would be rewrapped' count per file"""
import os
import re
import subprocess
import sys
import tempfile

LIMIT = 100


def lex(text):
    """per line: (starts inside a block comment, [(start, end, kind, closed)], has code)"""
    lines = text.split('\n')
    out = []
    in_block = False
    in_str = None  # a string or character literal continued by a backslash
    for line in lines:
        start_in = in_block
        spans = []
        code = False
        i, n = 0, len(line)
        if in_block:
            j = line.find('*/')
            if j < 0:
                spans.append((0, n, '/*', False))
                out.append((start_in, spans, False))
                continue
            spans.append((0, j + 2, '/*', True))
            in_block = False
            i = j + 2
        while i < n:
            c = line[i]
            if in_str:
                if c == '\\':
                    i += 2
                    continue
                if c == in_str:
                    in_str = None
                i += 1
                continue
            if c in '"\'':
                in_str = c
                code = True
                i += 1
                continue
            if line.startswith('//', i):
                spans.append((i, n, '//', True))
                break
            if line.startswith('/*', i):
                j = line.find('*/', i + 2)
                if j < 0:
                    spans.append((i, n, '/*', False))
                    in_block = True
                    break
                spans.append((i, j + 2, '/*', True))
                i = j + 2
                continue
            if not c.isspace():
                code = True
            i += 1
        if in_str and not line.endswith('\\'):
            in_str = None
        out.append((start_in, spans, code))
    return lines, out


def prose(text):
    return not re.search(r'\S {2,}\S', text) and not re.match(r'([-*+]|\d+[.)]|\|)\s', text)


def split_at(prefix, text, limit, least=0):
    """text broken at its last space that keeps prefix + first within limit and the break after
    column `least` of text, a closing */ never alone on the next line; None if none"""
    room = limit - len(prefix)
    if room < 20:
        return None
    end = room + 1
    while True:
        k = text.rfind(' ', 0, end)
        while k > 0 and text[k - 1] == ' ':
            k -= 1
        if k <= least:
            return None
        first, rest = text[:k].rstrip(), text[k:].lstrip()
        if rest != '*/':
            return first, rest
        end = k


def hang(text):
    """the column of text where a row's description starts ("name    what it is"), or 0"""
    m = re.match(r'\S+(?: \S+)?\s{2,}(?=\S)', text)
    return m.end() if m and m.end() <= 40 else 0


def wrap_block(items, limit, default_cont):
    """items: [prefix, text] of a comment's lines; rewrapped in place; True if changed"""
    changed = False
    k = 0
    while k < len(items):
        prefix, text = items[k]
        if len(prefix + text) > limit:
            h = hang(text)
            s = split_at(prefix, text, limit, h)
            if s:
                first, rest = s
                items[k][1] = first
                changed = True
                nxt = items[k + 1] if k + 1 < len(items) else None
                if nxt and nxt[1] == '*/':
                    nxt = None  # the comment's closing line: a line is inserted before it
                if h:  # a row of a table: its description goes on under itself
                    base = prefix if not prefix.lstrip().startswith(('/*', '//')) else default_cont
                    cont = base + ' ' * (len(prefix) + h - len(base))
                elif nxt:
                    cont = nxt[0]
                elif k > 0 and not prefix.lstrip().startswith(('/*', '//')):
                    cont = prefix
                else:
                    cont = default_cont
                if (nxt and nxt[1] and nxt[0] == cont and prose(first[h:]) and prose(nxt[1]) and
                        not rest.endswith('*/') and not hang(nxt[1])):
                    nxt[1] = rest + ' ' + nxt[1]
                else:
                    items.insert(k + 1, [cont, rest])
        k += 1
    return changed


def rewrap(text, limit):
    lines, info = lex(text)
    out = []
    i = 0
    n = len(lines)
    while i < n:
        line = lines[i]
        start_in, spans, code = info[i]
        cont_macro = line.endswith('\\') or (i > 0 and lines[i - 1].endswith('\\'))
        # a whole comment: lines i..j that are only comment
        if not code and spans and not cont_macro and not start_in and \
                spans[0][0] == len(line) - len(line.lstrip()) and len(spans) == 1:
            kind = spans[0][2]
            j = i
            if kind == '/*' and not spans[0][3]:
                while j + 1 < n and info[j + 1][0] and not info[j + 1][2] and \
                        len(info[j + 1][1]) == 1 and info[j + 1][1][0][3] is False:
                    j += 1
                if j + 1 < n and info[j + 1][0] and not info[j + 1][2] and \
                        len(info[j + 1][1]) == 1 and info[j + 1][1][0][1] == len(lines[j + 1]):
                    j += 1
                else:
                    out.extend(lines[i:j + 1])
                    i = j + 1
                    continue
            elif kind == '//':
                pre = re.match(r'\s*//+ ?', line).group(0)
                while j + 1 < n and not info[j + 1][2] and len(info[j + 1][1]) == 1 and \
                        info[j + 1][1][0][2] == '//' and lines[j + 1].startswith(pre) and \
                        not lines[j + 1].endswith('\\'):
                    j += 1
            block = lines[i:j + 1]
            if all(len(b) <= limit for b in block) or any(b.endswith('\\') for b in block):
                out.extend(block)
                i = j + 1
                continue
            indent = line[:len(line) - len(line.lstrip())]
            if kind == '//':
                pre = re.match(r'\s*//+ ?', line).group(0)
                items = [[pre, b[len(pre):]] for b in block]
                default = pre
            else:
                m = re.match(r'(\s*/\*+ ?)(.*)$', block[0])
                items = [[m.group(1), m.group(2)]]
                for b in block[1:]:
                    m = re.match(r'(\s*\*?(?!/) ?\s*)(.*)$', b)
                    items.append([m.group(1), m.group(2)])
                default = indent + ' * '
            wrap_block(items, limit, default)
            out.extend((p + t).rstrip() for p, t in items)
            i = j + 1
            continue
        # a comment after code, closed on its line, the code alone within the limit
        if code and len(line) > limit and not start_in and not cont_macro and len(spans) == 1 \
                and spans[0][3] and spans[0][1] == len(line.rstrip()):
            s0 = spans[0][0]
            head = line[:s0].rstrip()
            if len(head) <= limit and head.strip():
                indent = line[:len(line) - len(line.lstrip())]
                comment = line[s0:].rstrip()
                if spans[0][2] == '//':
                    pre = indent + '// '
                    items = [[pre, comment[2:].lstrip()]]
                    default = pre
                else:
                    items = [[indent + '/* ', comment[2:].lstrip()]]
                    default = indent + ' * '
                wrap_block(items, limit, default)
                out.extend((p + t).rstrip() for p, t in items)
                out.append(head)
                i += 1
                continue
        out.append(line)
        i += 1
    return '\n'.join(out)


def tokens(path_text, cc):
    with tempfile.NamedTemporaryFile('w', suffix='.c', delete=False) as f:
        f.write(path_text)
        name = f.name
    try:
        r = subprocess.run([cc, '-fpreprocessed', '-dD', '-E', '-P', '-x', 'c', name],
                           capture_output=True, text=True)
        if r.returncode:
            return None
        return re.sub(r'\s+', '', r.stdout)
    finally:
        os.unlink(name)


def main(argv):
    limit, check = LIMIT, False
    files = []
    it = iter(argv)
    for a in it:
        if a == '--limit':
            limit = int(next(it))
        elif a == '--check':
            check = True
        else:
            files.append(a)
    if not files:
        print(__doc__.split('usage: ')[1], file=sys.stderr)
        return 2
    cc = os.environ.get('CC', 'cc')
    bad = 0
    for path in files:
        text = open(path).read()
        new = rewrap(text, limit)
        if new == text:
            continue
        before = sum(len(l) > limit for l in text.split('\n'))
        after = sum(len(l) > limit for l in new.split('\n'))
        if tokens(text, cc) != tokens(new, cc) or tokens(text, cc) is None:
            print(f'{path}: left unchanged: its tokens would change', file=sys.stderr)
            bad += 1
            continue
        print(f'{path}: {before} -> {after} lines over {limit}')
        if not check:
            open(path, 'w').write(new)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
