// Generates a call transcript: alternating seller and buyer turns that follow the phases of the
// call type, timed at a natural speaking rate, until the meeting's duration is used up.
import type { Rng } from './prng.ts';
import { INTERNAL_LINES, phasesFor } from './lines.ts';
import type { CallType } from './vocabulary.ts';

export type Speaker = { participantId: number; name: string; side: 'seller' | 'buyer' | 'unknown' };
export type Segment = { idx: number; startMs: number; endMs: number; speaker: string; participantId: number; side: Speaker['side']; text: string };

const WORDS_PER_SECOND = 2.6;

function fill(line: string, values: Record<string, string>): string {
  return line.replace(/\{(\w+)\}/g, (_, key: string) => values[key] ?? key);
}

export function generateTranscript(
  rng: Rng,
  input: { type: CallType | 'internal'; durationMs: number; speakers: Speaker[]; values: Record<string, string> },
): Segment[] {
  const sellers = input.speakers.filter((s) => s.side === 'seller');
  const buyers = input.speakers.filter((s) => s.side !== 'seller');
  const phases = input.type === 'internal' ? null : phasesFor(input.type);
  const segments: Segment[] = [];
  let t = rng.int(2_000, 9_000);
  let lastSide: 'seller' | 'buyer' = 'buyer';
  while (t < input.durationMs - 5_000) {
    // Turns mostly alternate; sometimes one side keeps the floor (a question followed by detail).
    const side: 'seller' | 'buyer' = buyers.length === 0 ? 'seller' : rng.chance(0.78) ? (lastSide === 'seller' ? 'buyer' : 'seller') : lastSide;
    const pool = side === 'seller' || buyers.length === 0 ? sellers : buyers;
    const speaker = pool.length > 0 ? rng.pick(pool) : rng.pick(input.speakers);
    let text: string;
    if (phases) {
      const phase = phases[Math.min(phases.length - 1, Math.floor((t / input.durationMs) * phases.length))]!;
      const lines = side === 'seller' ? phase.seller : phase.buyer;
      text = fill(rng.pick(lines), input.values);
      if (rng.chance(0.3)) text += ' ' + fill(rng.pick(lines), input.values);
    } else {
      text = rng.pick(INTERNAL_LINES);
      if (rng.chance(0.3)) text += ' ' + rng.pick(INTERNAL_LINES);
    }
    const words = text.split(' ').length;
    const speakMs = Math.round((words / WORDS_PER_SECOND) * 1000);
    segments.push({ idx: segments.length, startMs: t, endMs: t + speakMs, speaker: speaker.name, participantId: speaker.participantId, side: speaker.side, text });
    t += speakMs + rng.int(200, 1_500);
    lastSide = side;
  }
  return segments;
}
