#!/usr/bin/env python3
"""What the device's idle time in a profiled step was spent on, computed
from a torch_npu timeline alone (never from msprof-exec's output), for
the tests of the report's idle summary (t/0379-real-idle.t).  Standard
library only.

    timeline_figures.py trace TRACE_VIEW_JSON      figures as JSON
    timeline_figures.py db ASCEND_PYTORCH_PROFILER_DB

The definitions (the same the report states in its man page):

- a step is a host event ProfilerStep#N, from its start to its end;
- the device is busy while any device task runs (trace_view.json: the
  events with a "Task Type" argument, the Ascend Hardware track; db:
  TASK); it is idle in the rest of the step;
- the host's causes: a synchronisation (aten::item,
  aten::_local_scalar_dense, CANN's aclrtSynchronize*, named
  "AscendCL@aclrtSynchronize..." in the text export), operator
  compilation (aclopCompile*), Python's garbage collector (category gc),
  the data loader (a Python or operator event whose name holds
  "dataloader"), a captured graph's launch (aclmdlRIExecute*);
- each cause's host time is the union of its events inside the step; a
  synchronisation is charged to the innermost frame of its call stack
  that is the user's (not torch's, site-packages', dist-packages' nor the
  standard library's), taken from the synchronising operator itself or
  from the innermost operator with a stack around a CANN synchronisation.
"""
import json
import re
import sqlite3
import sys

FRAME = re.compile(r'^(.*)\((\d+)\): (.*)$')
LIBS = ('/site-packages/', '/dist-packages/', '/torch/', '/torch_npu/')
STDLIB = re.compile(r'/lib/python\d+(\.\d+)?/')


def user_frame(stack):
    """The innermost three user frames, "file:line function < ..."."""
    out = []
    for f in stack.replace('\r', '').split(';\n'):
        m = FRAME.match(f.strip())
        if not m:
            continue
        path = m.group(1)
        if any(l in path for l in LIBS) or STDLIB.search(path) or \
                path.startswith('<'):
            continue
        out.append('%s:%s %s' % (path.rsplit('/', 1)[-1], m.group(2),
                                 m.group(3)))
        if len(out) == 3:
            break
    return ' < '.join(out) if out else None


def ns(ts):
    """Microseconds (a string with three decimals, or a number) in ns."""
    if isinstance(ts, str):
        whole, _, frac = ts.strip().partition('.')
        return int(whole) * 1000 + int((frac + '000')[:3])
    return round(float(ts) * 1000)


def cause(name, cat):
    acl = name[len('AscendCL@'):] if name.startswith('AscendCL@') else name
    if cat == 'gc':
        return 'gc'
    if name in ('aten::item', 'aten::_local_scalar_dense') or \
            acl.startswith('aclrtSynchronize'):
        return 'sync'
    if acl.startswith('aclopCompile'):
        return 'compile'
    if acl.startswith('aclmdlRIExecute'):
        return 'graph'
    if 'dataloader' in name.lower() and cat in ('python_function', 'cpu_op'):
        return 'dataloader'
    return None


def union(iv):
    out = []
    for a, b in sorted(iv):
        if out and a <= out[-1][1]:
            out[-1][1] = max(out[-1][1], b)
        else:
            out.append([a, b])
    return out


def total(iv):
    return sum(b - a for a, b in iv)


def clip(iv, a, b):
    return [[max(x, a), min(y, b)] for x, y in iv if min(y, b) > max(x, a)]


def inter(u, v):
    i = j = 0
    t = 0.0
    while i < len(u) and j < len(v):
        a = max(u[i][0], v[j][0])
        b = min(u[i][1], v[j][1])
        if b > a:
            t += b - a
        if u[i][1] < v[j][1]:
            i += 1
        else:
            j += 1
    return t


def figures(steps, tasks, host):
    """steps [(name, a, b)], tasks [(a, b)], host [(name, cat, a, b,
    stack, tid)], in ns: the figures of each step (us)."""
    busy = union(tasks)
    ops = [h for h in host if h[4]]
    out = []
    for name, s0, s1 in steps:
        idle = union(clip([[s0, s1]], s0, s1))
        bs = clip(busy, s0, s1)
        idle = []
        t = s0
        for a, b in bs:
            if a > t:
                idle.append([t, a])
            t = max(t, b)
        if t < s1:
            idle.append([t, s1])
        by = {}
        frames = {}
        for hn, cat, a, b, stack, tid in host:
            c = cause(hn, cat)
            if c is None or b <= s0 or a >= s1:
                continue
            by.setdefault(c, []).append([a, b])
            if c != 'sync':
                continue
            f = user_frame(stack) if stack else None
            if f is None:
                # the innermost operator with a stack around it
                best = None
                for on, ocat, oa, ob, ostack, otid in ops:
                    if otid == tid and oa <= a and ob >= b and \
                            (best is None or ob - oa < best[1] - best[0]):
                        best = (oa, ob, ostack)
                if best is not None:
                    f = user_frame(best[2])
            if f is not None:
                frames.setdefault(f, []).append([a, b])
        c = {}
        for k, iv in by.items():
            u = union(clip(iv, s0, s1))
            c[k] = {'host_us': total(u) / 1e3,
                    'idle_us': inter(u, idle) / 1e3}
        fr = {}
        for k, iv in frames.items():
            u = union(clip(iv, s0, s1))
            fr[k] = {'host_us': total(u) / 1e3,
                    'idle_us': inter(u, idle) / 1e3}
        out.append({'step': name, 'step_us': (s1 - s0) / 1e3,
                    'idle_us': total(idle) / 1e3, 'causes': c,
                    'frames': fr})
    return out


def from_trace(path):
    d = json.load(open(path))
    steps, tasks, host = [], [], []
    for e in d:
        if e.get('ph') != 'X':
            continue
        if 'ts' not in e:
            continue
        a = ns(e['ts'])
        b = a + ns(e.get('dur', 0))
        args = e.get('args') or {}
        if 'Task Type' in args:
            tasks.append((a, b))
            continue
        n = e.get('name', '')
        if n.startswith('ProfilerStep#'):
            steps.append((n, a, b))
            continue
        host.append((n, (e.get('cat') or '').lower(), a, b,
                     args.get('Call stack', ''), e.get('tid')))
    return figures(steps, tasks, host)


def from_db(path):
    db = sqlite3.connect('file:%s?immutable=1' % path, uri=True)
    s = dict(db.execute('SELECT id, value FROM STRING_IDS'))
    stacks = {}
    for cid, sid, depth in db.execute(
            'SELECT id, stack, stackDepth FROM PYTORCH_CALLCHAINS'):
        stacks.setdefault(cid, []).append((depth, s.get(sid, '')))
    stack = {k: ';\r\n'.join(f for _, f in sorted(v))
             for k, v in stacks.items()}
    steps, host = [], []
    for st, en, name, cid, tid in db.execute(
            'SELECT startNs, endNs, name, callchainId, globalTid '
            'FROM PYTORCH_API'):
        n = s.get(name, '')
        a, b = int(st), int(en)
        if n.startswith('ProfilerStep#'):
            steps.append((n, a, b))
        else:
            host.append((n, 'cpu_op', a, b, stack.get(cid, ''), tid))
    for st, en, name, tid in db.execute(
            'SELECT startNs, endNs, name, globalTid FROM CANN_API'):
        host.append((s.get(name, ''), '', int(st), int(en), '', tid))
    tasks = [(int(a), int(b)) for a, b in
             db.execute('SELECT startNs, endNs FROM TASK')]
    return figures(steps, tasks, host)


if __name__ == '__main__':
    f = from_trace if sys.argv[1] == 'trace' else from_db
    json.dump(f(sys.argv[2]), sys.stdout, indent=1, sort_keys=True)
    print()
