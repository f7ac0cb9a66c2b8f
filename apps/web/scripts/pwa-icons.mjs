// Renders the installed app's icons (web app manifest, iOS home screen) from the portal's logo
// (public/favicon.svg) into public/icons/. Run by hand when the logo changes: `node apps/web/scripts/pwa-icons.mjs`;
// the PNGs are committed, so the build does not need sharp.
import { mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const pub = fileURLToPath(new URL('../public/', import.meta.url));
const logo = readFileSync(`${pub}favicon.svg`, 'utf8');
const glyph = logo.match(/<path d="([^"]+)"/)?.[1];
const colour = logo.match(/fill="(#[0-9a-f]{6})"/i)?.[1];
if (!glyph || !colour) throw new Error('pwa-icons: favicon.svg changed shape (no path or fill colour)');

// "any": the logo as it is (rounded square). "maskable": a full-bleed square with the glyph inside the
// safe zone (the central 80% circle), since launchers crop maskable icons to their own shape.
const maskable = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" fill="${colour}"/><g transform="translate(16 16.5) scale(0.62) translate(-16 -17.5)"><path d="${glyph}" fill="#fff"/></g></svg>`;
// iOS draws its own rounded corners and shows transparency as black: a full square, a bit of margin.
const apple = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" fill="${colour}"/><g transform="translate(16 16.5) scale(0.8) translate(-16 -17.5)"><path d="${glyph}" fill="#fff"/></g></svg>`;

mkdirSync(`${pub}icons`, { recursive: true });
const render = (svg, size, name) =>
  sharp(Buffer.from(svg), { density: (72 * size) / 32 })
    .resize(size, size)
    .png({ compressionLevel: 9 })
    .toFile(`${pub}icons/${name}`);
await render(logo, 192, 'icon-192.png');
await render(logo, 512, 'icon-512.png');
await render(maskable, 512, 'icon-maskable-512.png');
await render(apple, 180, 'apple-touch-icon.png');
console.log('pwa-icons: public/icons/ written');
