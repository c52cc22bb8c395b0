// A strict parser for the llms.txt proposal (https://llmstxt.org/): in order, one `# H1` (required),
// a `> blockquote` summary, zero or more blocks of prose that contain no headings, then zero or
// more `## H2` sections that each hold only a Markdown list of links `- [name](url)` with optional
// `: notes`. The section named "Optional" holds secondary links. Any other shape is an error.

export type LlmsLink = { title: string; url: string; notes: string | undefined };
export type LlmsTxt = { title: string; summary: string; info: string; sections: Array<{ name: string; links: LlmsLink[] }> };

export class LlmsTxtError extends Error {
  constructor(line: number, problem: string) {
    super(`llms.txt line ${line}: ${problem}`);
  }
}

const LINK_ITEM = /^- \[(?<title>[^\]]+)\]\((?<url>[^)\s]+)\)(?::\s*(?<notes>.*))?$/;

export function parseLlmsTxt(text: string): LlmsTxt {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  let i = 0;
  const skipBlank = () => {
    while (i < lines.length && lines[i]!.trim() === '') i += 1;
  };

  skipBlank();
  const h1 = /^# (?<title>\S.*)$/.exec(lines[i] ?? '');
  if (!h1?.groups) throw new LlmsTxtError(i + 1, 'the file must start with a `# Title` H1');
  const title = h1.groups.title!.trim();
  i += 1;

  skipBlank();
  const summaryLines: string[] = [];
  while (i < lines.length && lines[i]!.startsWith('>')) {
    summaryLines.push(lines[i]!.replace(/^>\s?/, ''));
    i += 1;
  }
  if (summaryLines.length === 0) throw new LlmsTxtError(i + 1, 'the H1 must be followed by a `> summary` blockquote');

  const infoLines: string[] = [];
  while (i < lines.length && !lines[i]!.startsWith('## ')) {
    if (/^#{1,6}(\s|$)/.test(lines[i]!)) throw new LlmsTxtError(i + 1, 'prose before the first H2 section must not contain headings');
    infoLines.push(lines[i]!);
    i += 1;
  }

  const sections: LlmsTxt['sections'] = [];
  while (i < lines.length) {
    const h2 = /^## (?<name>\S.*)$/.exec(lines[i]!);
    if (!h2?.groups) throw new LlmsTxtError(i + 1, 'expected a `## Section` heading');
    const section = { name: h2.groups.name!.trim(), links: [] as LlmsLink[] };
    i += 1;
    while (i < lines.length && !lines[i]!.startsWith('## ')) {
      const line = lines[i]!;
      if (line.trim() !== '') {
        const item = LINK_ITEM.exec(line);
        if (!item?.groups) throw new LlmsTxtError(i + 1, `H2 sections hold only link lists \`- [name](url): notes\`, got ${JSON.stringify(line)}`);
        try {
          new URL(item.groups.url!);
        } catch {
          throw new LlmsTxtError(i + 1, `link URL is not absolute: ${item.groups.url}`);
        }
        section.links.push({ title: item.groups.title!, url: item.groups.url!, notes: item.groups.notes });
      }
      i += 1;
    }
    if (section.links.length === 0) throw new LlmsTxtError(i, `section "${section.name}" holds no links`);
    sections.push(section);
  }

  return { title, summary: summaryLines.join(' ').trim(), info: infoLines.join('\n').trim(), sections };
}
