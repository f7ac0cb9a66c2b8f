// The local test providers' person chooser (`npm start` in development, decision 048/052).

/** The page where a person is chosen, when no test named one (`npm start`'s test providers). */
export function chooserPage(
  title: string,
  people: Record<string, { label: string; detail: string }>,
  hrefOf: (key: string) => string,
): string {
  const esc = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  const items = Object.entries(people)
    .map(
      ([key, p]) =>
        `<li><a href="${esc(hrefOf(key))}">${esc(p.label)}</a> <span>${esc(p.detail)}</span></li>`,
    )
    .join('');
  return (
    `<!doctype html><html lang="it"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${esc(title)}</title><style>body{font-family:sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;line-height:1.5}` +
    `li{margin:.75rem 0}a{font-weight:bold}.avviso{border:2px solid #a66300;padding:.75rem;background:#fff4e5}</style></head><body>` +
    `<main><h1>${esc(title)}</h1><p class="avviso"><strong>Provider di prova per lo sviluppo locale.</strong> ` +
    `Nessuna identità reale: scegli una delle persone fittizie per continuare.</p><ul>${items}</ul></main></body></html>`
  );
}
