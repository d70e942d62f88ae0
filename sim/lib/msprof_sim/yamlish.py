"""A small YAML reader for the subset MindSpeed configs use: nested block mappings
and sequences, plain/quoted scalars, flow lists and mappings (also spanning lines),
comments, anchors/aliases and `<<` merge keys, `|`/`>` block scalars.
Not a full YAML implementation (no tags, no multi-documents)."""

import re

__all__ = ["load", "load_file", "YamlError", "parse_scalar"]


class YamlError(ValueError):
    pass


_INT = re.compile(r"^[-+]?(0|[1-9][0-9_]*)$")
_FLOAT = re.compile(r"^[-+]?(\.[0-9]+|[0-9][0-9_]*(\.[0-9_]*)?)([eE][-+]?[0-9]+)?$")


def parse_scalar(text):
    t = text.strip()
    if t == "" or t in ("~", "null", "Null", "NULL"):
        return None
    if t in ("true", "True", "TRUE", "yes", "Yes", "on", "On"):
        return True
    if t in ("false", "False", "FALSE", "no", "No", "off", "Off"):
        return False
    if _INT.match(t):
        return int(t.replace("_", ""))
    if _FLOAT.match(t) and any(c.isdigit() for c in t):
        return float(t.replace("_", ""))
    if t in (".inf", ".Inf", "+.inf"):
        return float("inf")
    if t in ("-.inf", "-.Inf"):
        return float("-inf")
    if t in (".nan", ".NaN"):
        return float("nan")
    return t


def _strip_comment(line):
    out = []
    quote = None
    prev = " "
    for ch in line:
        if quote:
            if ch == quote:
                quote = None
        elif ch in ("'", '"') and (prev in " \t[{,:" or not out):
            quote = ch
        elif ch == "#" and prev in " \t":
            break
        out.append(ch)
        prev = ch
    return "".join(out).rstrip()


def _depth(text):
    d = 0
    quote = None
    for ch in text:
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch in "[{":
            d += 1
        elif ch in "]}":
            d -= 1
    return d


class _Parser:
    def __init__(self, text):
        self.anchors = {}
        self.raw = text.replace("\t", "    ").splitlines()
        self.lines = []          # (indent, text, raw index)
        i = 0
        while i < len(self.raw):
            raw = self.raw[i]
            if raw.strip() in ("---", "...") and not raw.startswith(" "):
                i += 1
                continue
            s = _strip_comment(raw)
            if not s.strip():
                i += 1
                continue
            indent = len(s) - len(s.lstrip(" "))
            body = s.strip()
            start = i
            while _depth(body) > 0 and i + 1 < len(self.raw):
                i += 1
                body += " " + _strip_comment(self.raw[i]).strip()
            self.lines.append((indent, body, start))
            i += 1

    # ------------------------------------------------------------ blocks
    def parse(self):
        if not self.lines:
            return None
        value, idx = self.block(0, self.lines[0][0])
        if idx != len(self.lines):
            raise YamlError("unexpected content at line %d: %s" % (self.lines[idx][2] + 1, self.lines[idx][1]))
        return value

    def block(self, idx, indent):
        text = self.lines[idx][1]
        if text == "-" or text.startswith("- "):
            return self.sequence(idx, indent)
        if self._split_key(text) is None:
            return self.value(text, idx, indent), idx + 1
        return self.mapping(idx, indent)

    def sequence(self, idx, indent):
        out = []
        while idx < len(self.lines):
            ind, text, _ = self.lines[idx]
            if ind != indent or not (text == "-" or text.startswith("- ")):
                break
            rest = text[1:].strip()
            if rest == "":
                if idx + 1 < len(self.lines) and self.lines[idx + 1][0] > indent:
                    item, idx = self.block(idx + 1, self.lines[idx + 1][0])
                else:
                    item, idx = None, idx + 1
            elif self._split_key(rest) is not None and not rest.startswith(("[", "{", '"', "'")):
                sub = indent + (len(text) - len(rest))
                self.lines[idx] = (sub, rest, self.lines[idx][2])
                item, idx = self.mapping(idx, sub)
            elif rest.startswith(("- ",)) or rest == "-":
                sub = indent + (len(text) - len(rest))
                self.lines[idx] = (sub, rest, self.lines[idx][2])
                item, idx = self.sequence(idx, sub)
            else:
                item = self.value(rest, idx, indent)
                idx = self._after_block_scalar(rest, idx, indent)
            out.append(item)
        return out, idx

    def mapping(self, idx, indent):
        out = {}
        merges = []
        while idx < len(self.lines):
            ind, text, raw = self.lines[idx]
            if ind < indent:
                break
            if ind > indent:
                raise YamlError("bad indentation at line %d: %s" % (raw + 1, text))
            if text == "-" or text.startswith("- "):
                break
            kv = self._split_key(text)
            if kv is None:
                raise YamlError("expected 'key: value' at line %d: %s" % (raw + 1, text))
            key, rest = kv
            anchor = None
            if rest.startswith("&"):
                parts = rest.split(None, 1)
                anchor = parts[0][1:]
                rest = parts[1] if len(parts) > 1 else ""
            if rest == "":
                nxt = self.lines[idx + 1] if idx + 1 < len(self.lines) else None
                if nxt and nxt[0] > indent:
                    val, idx = self.block(idx + 1, nxt[0])
                elif nxt and nxt[0] == indent and (nxt[1] == "-" or nxt[1].startswith("- ")):
                    val, idx = self.sequence(idx + 1, indent)
                else:
                    val, idx = None, idx + 1
            else:
                val = self.value(rest, idx, indent)
                idx = self._after_block_scalar(rest, idx, indent)
            if anchor:
                self.anchors[anchor] = val
            if key == "<<":
                merges.extend(val if isinstance(val, list) else [val])
            else:
                out[key] = val
        for m in merges:
            if isinstance(m, dict):
                for k, v in m.items():
                    out.setdefault(k, v)
        return out, idx

    def _after_block_scalar(self, rest, idx, indent):
        if rest in ("|", ">", "|-", ">-", "|+", ">+"):
            idx += 1
            while idx < len(self.lines) and self.lines[idx][0] > indent:
                idx += 1
            return idx
        return idx + 1

    def _block_scalar(self, style, idx, indent):
        raw_start = self.lines[idx][2] + 1
        body = []
        j = raw_start
        block_indent = None
        while j < len(self.raw):
            line = self.raw[j]
            if line.strip() == "":
                body.append("")
                j += 1
                continue
            ind = len(line) - len(line.lstrip(" "))
            if ind <= indent:
                break
            if block_indent is None:
                block_indent = ind
            body.append(line[block_indent:])
            j += 1
        while body and body[-1] == "":
            body.pop()
        if style.startswith(">"):
            text = " ".join(b for b in body)
        else:
            text = "\n".join(body)
        if not style.endswith("-"):
            text += "\n"
        return text

    @staticmethod
    def _split_key(text):
        if text.startswith(("'", '"')):
            q = text[0]
            end = text.find(q, 1)
            if end < 0:
                return None
            key = text[1:end]
            rest = text[end + 1:].lstrip()
            if not rest.startswith(":"):
                return None
            return key, rest[1:].strip()
        if text.startswith(("[", "{")):
            return None
        m = re.match(r"^([^:#]*?[^\s:]|<<)\s*:(\s+|$)(.*)$", text)
        if not m:
            return None
        return m.group(1).strip(), m.group(3).strip()

    # ------------------------------------------------------------ scalars
    def value(self, text, idx=None, indent=0):
        t = text.strip()
        if t in ("|", ">", "|-", ">-", "|+", ">+"):
            return self._block_scalar(t, idx, indent)
        if t.startswith("*"):
            name = t[1:].strip()
            if name not in self.anchors:
                raise YamlError("unknown alias *%s" % name)
            return self.anchors[name]
        if t.startswith(("[", "{")):
            val, pos = self.flow(t, 0)
            if t[pos:].strip():
                raise YamlError("trailing text after flow collection: %s" % t)
            return val
        if t.startswith(("'", '"')):
            return self.quoted(t)
        return parse_scalar(t)

    @staticmethod
    def quoted(t):
        q = t[0]
        if len(t) < 2 or t[-1] != q:
            raise YamlError("unterminated string: %s" % t)
        body = t[1:-1]
        if q == "'":
            return body.replace("''", "'")
        return body.encode("latin-1", "backslashreplace").decode("unicode_escape") if "\\" in body else body

    def flow(self, s, i):
        while i < len(s) and s[i] == " ":
            i += 1
        ch = s[i]
        if ch == "[":
            out = []
            i += 1
            while True:
                while i < len(s) and s[i] in " ,":
                    i += 1
                if i >= len(s):
                    raise YamlError("unterminated flow sequence: %s" % s)
                if s[i] == "]":
                    return out, i + 1
                v, i = self.flow(s, i)
                out.append(v)
        if ch == "{":
            out = {}
            i += 1
            while True:
                while i < len(s) and s[i] in " ,":
                    i += 1
                if i >= len(s):
                    raise YamlError("unterminated flow mapping: %s" % s)
                if s[i] == "}":
                    return out, i + 1
                k, i = self.flow_atom(s, i, key=True)
                while i < len(s) and s[i] == " ":
                    i += 1
                if i < len(s) and s[i] == ":":
                    v, i = self.flow(s, i + 1)
                else:
                    v = None
                out[k] = v
        return self.flow_atom(s, i)

    def flow_atom(self, s, i, key=False):
        while i < len(s) and s[i] == " ":
            i += 1
        if s[i] in "'\"":
            q = s[i]
            j = i + 1
            while j < len(s):
                if s[j] == q:
                    if q == "'" and j + 1 < len(s) and s[j + 1] == "'":
                        j += 2
                        continue
                    break
                j += 1
            return self.quoted(s[i:j + 1]), j + 1
        if s[i] in "[{":
            return self.flow(s, i)
        j = i
        stop = ",]}" if not key else ",]}:"
        while j < len(s) and s[j] not in stop:
            if not key and s[j] == ":" and (j + 1 >= len(s) or s[j + 1] == " "):
                break
            j += 1
        token = s[i:j].strip()
        if key:
            return token, j
        if token.startswith("*"):
            return self.anchors.get(token[1:]), j
        return parse_scalar(token), j


def load(text):
    return _Parser(text).parse()


def load_file(path):
    with open(path, encoding="utf-8") as f:
        return load(f.read())
