// A small, strict XML 1.0 reader for test documents (no DTDs, no processing instructions besides
// the declaration): it throws on anything not well-formed, which is what the sitemap test needs.
export type XmlElement = { name: string; attributes: Record<string, string>; children: XmlElement[]; text: string };

const NAME = /^[A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?/;
const ENTITY = /&(?:(amp|lt|gt|quot|apos)|#(\d+)|#x([0-9a-fA-F]+));/g;

function decode(text: string, where: string): string {
  if (/&(?!(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/.test(text)) throw new Error(`unescaped & in ${where}`);
  if (text.includes('<')) throw new Error(`unescaped < in ${where}`);
  const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
  return text.replace(ENTITY, (_, name: string | undefined, dec: string | undefined, hex: string | undefined) =>
    name ? named[name]! : String.fromCodePoint(Number.parseInt(dec ?? hex!, dec ? 10 : 16)),
  );
}

export function parseXml(source: string): XmlElement {
  let i = 0;
  const decl = /^<\?xml\s+version="1\.[0-9]"(?:\s+encoding="([^"]+)")?(?:\s+standalone="(?:yes|no)")?\s*\?>/.exec(source);
  if (decl) i = decl[0].length;
  const skipSpace = () => {
    while (i < source.length && /\s/.test(source[i]!)) i += 1;
  };

  function element(): XmlElement {
    if (source[i] !== '<') throw new Error(`expected an element at ${i}`);
    i += 1;
    const name = NAME.exec(source.slice(i))?.[0];
    if (!name) throw new Error(`bad element name at ${i}`);
    i += name.length;
    const attributes: Record<string, string> = {};
    for (;;) {
      skipSpace();
      if (source.startsWith('/>', i)) {
        i += 2;
        return { name, attributes, children: [], text: '' };
      }
      if (source[i] === '>') {
        i += 1;
        break;
      }
      const attr = /^([A-Za-z_][\w.:-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/.exec(source.slice(i));
      if (!attr) throw new Error(`bad attribute in <${name}> at ${i}`);
      if (attr[1]! in attributes) throw new Error(`duplicate attribute ${attr[1]}`);
      attributes[attr[1]!] = decode(attr[2] ?? attr[3] ?? '', `attribute ${attr[1]}`);
      i += attr[0].length;
    }
    const children: XmlElement[] = [];
    let text = '';
    for (;;) {
      if (i >= source.length) throw new Error(`unclosed <${name}>`);
      if (source.startsWith('</', i)) {
        const close = new RegExp(`^</${name.replace(/[.]/g, '\\.')}\\s*>`).exec(source.slice(i));
        if (!close) throw new Error(`mismatched closing tag for <${name}> at ${i}`);
        i += close[0].length;
        return { name, attributes, children, text: decode(text, `<${name}>`) };
      }
      if (source.startsWith('<!--', i)) {
        const end = source.indexOf('-->', i);
        if (end < 0) throw new Error('unclosed comment');
        i = end + 3;
      } else if (source[i] === '<') {
        children.push(element());
      } else {
        const next = source.indexOf('<', i);
        text += source.slice(i, next < 0 ? source.length : next);
        i = next < 0 ? source.length : next;
      }
    }
  }

  skipSpace();
  const root = element();
  skipSpace();
  if (i !== source.length) throw new Error('content after the root element');
  return root;
}
