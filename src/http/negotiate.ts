// Proactive content negotiation on Accept (RFC 9110 §12.5.1): q-values honoured, the most specific
// matching range decides a type's quality, and ties go to the type the client named explicitly, then
// to the server's order (HTML first). So `*/*` alone means HTML, `text/markdown` means Markdown, and
// `text/markdown;q=0.1, text/html` means HTML.

type Range = { type: string; subtype: string; q: number; specificity: number };

function parseAccept(header: string | undefined): Range[] {
  if (!header || !header.trim()) return [{ type: '*', subtype: '*', q: 1, specificity: 0 }];
  const ranges: Range[] = [];
  for (const part of header.split(',')) {
    const [mediaRange = '', ...params] = part.split(';').map((s) => s.trim());
    const [type, subtype] = mediaRange.toLowerCase().split('/');
    if (!type || !subtype) continue;
    let q = 1;
    for (const param of params) {
      const [name, value] = param.split('=').map((s) => s.trim());
      if (name?.toLowerCase() !== 'q' || value === undefined) continue;
      const parsed = Number(value);
      // RFC 9110 §12.4.2: qvalue is 0 to 1 with at most three decimals; a malformed one counts as 1.
      q = Number.isFinite(parsed) && parsed >= 0 && parsed <= 1 ? parsed : 1;
    }
    const specificity = type === '*' ? 0 : subtype === '*' ? 1 : 2;
    ranges.push({ type, subtype, q, specificity });
  }
  return ranges;
}

/** The quality the client gives `mediaType`, and how specifically it named it (2 = exact). */
function qualityOf(ranges: Range[], mediaType: string): { q: number; specificity: number } {
  const [type, subtype] = mediaType.split('/');
  let best: Range | undefined;
  for (const range of ranges) {
    const matches =
      (range.type === '*' && range.subtype === '*') ||
      (range.type === type && (range.subtype === '*' || range.subtype === subtype));
    if (matches && (!best || range.specificity > best.specificity)) best = range;
  }
  return best ? { q: best.q, specificity: best.specificity } : { q: 0, specificity: -1 };
}

/**
 * Picks one of `offered` (in the server's order of preference) for this Accept header. When the
 * client accepts none of them, the first is returned: RFC 9110 §12.5.1 lets a server ignore Accept
 * rather than answer 406, and a page is more useful than an error.
 */
export function negotiate<T extends string>(accept: string | undefined, offered: readonly [T, ...T[]]): T {
  const ranges = parseAccept(accept);
  let chosen = offered[0];
  let chosenScore = { q: -1, specificity: -1 };
  for (const mediaType of offered) {
    const score = qualityOf(ranges, mediaType);
    if (score.q <= 0) continue;
    if (score.q > chosenScore.q || (score.q === chosenScore.q && score.specificity > chosenScore.specificity)) {
      chosen = mediaType;
      chosenScore = score;
    }
  }
  return chosen;
}

export const HTML = 'text/html';
export const MARKDOWN = 'text/markdown';
export const JSON_TYPE = 'application/json';

/** HTML unless the request prefers Markdown. */
export function prefersMarkdown(accept: string | undefined): boolean {
  return negotiate(accept, [HTML, MARKDOWN]) === MARKDOWN;
}
