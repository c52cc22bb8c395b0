// Summarizes a .cpuprofile (from `npm run bench -- --profile`): self time by function and by
// package/file, the top entries first, as shares of the busy time (idle excluded: a contender
// idles while the others are measured). Usage: node bench/profile-summary.ts FILE [N]
import { readFileSync } from 'node:fs';

type Node = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] };
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[] };

export function summarize(profile: Profile, top = 25): string {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  const idle = new Set(profile.nodes.filter((n) => n.callFrame.functionName === '(idle)').map((n) => n.id));
  profile.samples.forEach((id, i) => {
    if (!idle.has(id)) self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const fn = new Map<string, number>();
  const file = new Map<string, number>();
  for (const [id, us] of self) {
    const n = byId.get(id);
    if (!n) continue;
    const url = n.callFrame.url.replace(/^file:\/\/.*?\/work\/main\//, '').replace(/^.*node_modules\//, 'node_modules/');
    const where = url.startsWith('node_modules/') ? url.split('/').slice(0, url.split('/')[1]?.startsWith('@') ? 3 : 2).join('/') : url || '(native)';
    const name = `${n.callFrame.functionName || '(anonymous)'} ${url ? `${url}:${n.callFrame.lineNumber + 1}` : ''}`;
    fn.set(name, (fn.get(name) ?? 0) + us);
    file.set(where, (file.get(where) ?? 0) + us);
  }
  const rows = (m: Map<string, number>) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, us]) => `${((us / total) * 100).toFixed(1).padStart(5)}%  ${k}`);
  return [`busy ${(total / 1e6).toFixed(2)} s sampled`, '', 'self time by package/file:', ...rows(file), '', 'self time by function:', ...rows(fn)].join('\n');
}

if (import.meta.main) {
  const [path, n] = process.argv.slice(2);
  if (!path) throw new Error('usage: node bench/profile-summary.ts FILE.cpuprofile [N]');
  process.stdout.write(summarize(JSON.parse(readFileSync(path, 'utf8')) as Profile, Number(n ?? '25')) + '\n');
}
