// Summarizes a profile from `npm run bench -- --profile` or `--alloc-profile`, the top entries
// first, by function and by package/file. A .cpuprofile: self time, as shares of the busy time
// (idle excluded: a contender idles while the others are measured). A .heapprofile: bytes
// allocated (sampled, collected objects included), as shares of all and in MB.
// Usage: node bench/profile-summary.ts FILE [N]
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { ROOT } from './lib/proc.ts';

type CallFrame = { functionName: string; url: string; lineNumber: number };
type Node = { id: number; callFrame: CallFrame; children?: number[] };
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[] };
type HeapNode = { callFrame: CallFrame; selfSize: number; children: HeapNode[] };
export type HeapProfile = { head: HeapNode };

/** Where a frame is: the project's path, a package's name, or '(native)'. */
function place(frame: CallFrame): { url: string; where: string } {
  const url = frame.url.replace(pathToFileURL(ROOT).href, '').replace(/^.*node_modules\//, 'node_modules/');
  const where = url.startsWith('node_modules/') ? url.split('/').slice(0, url.split('/')[1]?.startsWith('@') ? 3 : 2).join('/') : url || '(native)';
  return { url, where };
}

/** Each function's and each file's share of `total`, the top `top` of each. */
function byFunctionAndFile(entries: Iterable<[CallFrame, number]>, top: number, show: (v: number, total: number) => string): { total: number; file: string[]; fn: string[] } {
  const fn = new Map<string, number>();
  const file = new Map<string, number>();
  let total = 0;
  for (const [frame, v] of entries) {
    const { url, where } = place(frame);
    const name = `${frame.functionName || '(anonymous)'} ${url ? `${url}:${frame.lineNumber + 1}` : ''}`;
    fn.set(name, (fn.get(name) ?? 0) + v);
    file.set(where, (file.get(where) ?? 0) + v);
    total += v;
  }
  const rows = (m: Map<string, number>) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, v]) => `${show(v, total)}  ${k}`);
  return { total, file: rows(file), fn: rows(fn) };
}

const share = (v: number, total: number) => `${((v / total) * 100).toFixed(1).padStart(5)}%`;

export function summarize(profile: Profile, top = 25): string {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  const idle = new Set(profile.nodes.filter((n) => n.callFrame.functionName === '(idle)').map((n) => n.id));
  profile.samples.forEach((id, i) => {
    if (!idle.has(id)) self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const entries = [...self].flatMap(([id, us]) => {
    const n = byId.get(id);
    return n ? [[n.callFrame, us] as [CallFrame, number]] : [];
  });
  const { total, file, fn } = byFunctionAndFile(entries, top, share);
  return [`busy ${(total / 1e6).toFixed(2)} s sampled`, '', 'self time by package/file:', ...file, '', 'self time by function:', ...fn].join('\n');
}

export function summarizeAllocations(profile: HeapProfile, top = 25): string {
  const entries: [CallFrame, number][] = [];
  const walk = (n: HeapNode) => {
    if (n.selfSize > 0) entries.push([n.callFrame, n.selfSize]);
    n.children.forEach(walk);
  };
  walk(profile.head);
  const mb = (v: number, total: number) => `${share(v, total)} ${(v / 1048576).toFixed(1).padStart(8)} MB`;
  const { total, file, fn } = byFunctionAndFile(entries, top, mb);
  return [`${(total / 1048576).toFixed(1)} MB allocated (sampled)`, '', 'allocated by package/file:', ...file, '', 'allocated by function:', ...fn].join('\n');
}

if (import.meta.main) {
  const [path, n] = process.argv.slice(2);
  if (!path) throw new Error('usage: node bench/profile-summary.ts FILE.cpuprofile|FILE.heapprofile [N]');
  const profile = JSON.parse(readFileSync(path, 'utf8')) as Profile | HeapProfile;
  const top = Number(n ?? '25');
  process.stdout.write(('head' in profile ? summarizeAllocations(profile, top) : summarize(profile, top)) + '\n');
}
