import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import Papa from 'papaparse';
import type { Db } from '../db/client.ts';
import { institutes, schoolSites } from '../db/schema/index.ts';

type Row = Record<string, string>;
interface Municipality {
  province: string;
  region: string;
  name: string;
  lat: number;
  lng: number;
}

const MISSING = 'Non Disponibile';
const INSTITUTE_LEVEL_TYPES = new Set(['ISTITUTO COMPRENSIVO', 'ISTITUTO SUPERIORE']);
const SAMPLE_PROVINCES = new Set(['RM', 'PV']);

function readCsv(path: string): Row[] {
  const text = gunzipSync(readFileSync(path)).toString('utf8');
  return Papa.parse<Row>(text, { header: true, skipEmptyLines: true }).data;
}

function clean(value: string | undefined): string | null {
  if (!value || value === MISSING || value === 'ND') return null;
  return value.trim() || null;
}

function titleCase(value: string): string {
  return value
    .toLowerCase()
    .replace(/(^|[\s'’(./-])(\p{L})/gu, (_, sep: string, ch: string) => sep + ch.toUpperCase());
}

/** The website as typed by schools, normalised to an https URL (data README §1a). */
function normaliseWebsite(value: string | undefined): string | null {
  const raw = clean(value);
  if (!raw) return null;
  const host = raw.replace(/^https?\/*:?\/*/i, '').replace(/^\/+/, '');
  return host.includes('.') ? `https://${host.toLowerCase()}` : null;
}

function schoolLevel(type: string): (typeof schoolSites.$inferInsert)['schoolLevel'] {
  if (type.includes('INFANZIA')) return 'infanzia';
  if (type.includes('PRIMARIA')) return 'primaria';
  if (type.includes('PRIMO GRADO')) return 'secondaria_primo_grado';
  if (/LICEO|TECNICO|PROF|SECONDO GRADO|ISTITUTO SUPERIORE|ISTITUTO D'ARTE|CONVITTO|EDUCANDATO/.test(type)) {
    return 'secondaria_secondo_grado';
  }
  return 'altro';
}

function loadMunicipalities(dataDir: string): Map<string, Municipality> {
  const map = new Map<string, Municipality>();
  for (const row of readCsv(join(dataDir, 'comuni_coordinate.csv.gz'))) {
    map.set(row.codice_catastale!, {
      province: row.sigla_provincia!,
      region: row.regione!,
      name: row.denominazione_it!,
      lat: Number(row.lat),
      lng: Number(row.lng),
    });
  }
  return map;
}

async function insertChunks<T>(
  items: T[],
  size: number,
  insert: (chunk: T[]) => Promise<unknown>,
): Promise<void> {
  for (let i = 0; i < items.length; i += size) await insert(items.slice(i, i + size));
}

/** Called while the registry loads: registry rows stored so far, out of the rows to store. */
export type RegistryProgress = (loaded: number, total: number) => void;
const PROGRESS_EVERY = 5000;

/**
 * Seeds institutes and school sites from the MIM registry joined to municipality coordinates.
 * Runs only when the institutes table is empty. `sample` keeps two provinces (fast test start).
 * `onProgress` hears (0, total) once the files are read, then about every 5,000 rows, then (total, total).
 */
export async function seedRegistry(
  db: Db,
  dataDir: string,
  mode: 'full' | 'sample',
  onProgress?: RegistryProgress,
): Promise<number> {
  const [{ count } = { count: 0 }] = await db.select({ count: sql<number>`count(*)::int` }).from(institutes);
  if (count > 0) return 0;
  const mimDir = join(dataDir, 'mim');
  if (!existsSync(mimDir)) throw new Error(`National registry not found in ${mimDir}`);
  const municipalities = loadMunicipalities(dataDir);
  const instituteRows = new Map<string, typeof institutes.$inferInsert>();
  const siteRows: (Omit<typeof schoolSites.$inferInsert, 'instituteId'> & { instituteCode: string })[] = [];
  // Institute-level rows (istituto comprensivo / superiore) are stored as institutes only.
  const instituteOnly = new Set<string>();

  const files = [
    { name: 'SCUANAGRAFESTAT20252620250901.csv.gz', state: true },
    { name: 'SCUANAAUTSTAT20252620250901.csv.gz', state: true },
    { name: 'SCUANAGRAFEPAR20252620250901.csv.gz', state: false },
    { name: 'SCUANAAUTPAR20252620250901.csv.gz', state: false },
  ];
  for (const file of files) {
    for (const row of readCsv(join(mimDir, file.name))) {
      const town = municipalities.get(row.CODICECOMUNESCUOLA!);
      if (!town) continue;
      if (mode === 'sample' && !SAMPLE_PROVINCES.has(town.province)) continue;
      const code = row.CODICESCUOLA!;
      const instituteCode = file.state ? row.CODICEISTITUTORIFERIMENTO! : code;
      const type = row.DESCRIZIONETIPOLOGIAGRADOISTRUZIONESCUOLA!;
      const place = {
        address: clean(row.INDIRIZZOSCUOLA),
        postalCode: clean(row.CAPSCUOLA)?.match(/^\d{5}$/)?.[0] ?? null,
        municipalityCode: row.CODICECOMUNESCUOLA!,
        municipalityName: town.name,
        province: town.province,
        region: town.region,
      };
      const name = clean(row.DENOMINAZIONESCUOLA) ?? code;
      if (code === instituteCode) {
        instituteRows.set(code, {
          ministryCode: code,
          name: file.state ? (clean(row.DENOMINAZIONEISTITUTORIFERIMENTO) ?? name) : name,
          type: titleCase(type),
          isStateSchool: file.state,
          ...place,
          email: clean(row.INDIRIZZOEMAILSCUOLA)?.toLowerCase() ?? null,
          certifiedEmail: clean(row.INDIRIZZOPECSCUOLA)?.toLowerCase() ?? null,
          website: normaliseWebsite(row.SITOWEBSCUOLA),
        });
        if (INSTITUTE_LEVEL_TYPES.has(type)) {
          instituteOnly.add(code);
          continue;
        }
      }
      siteRows.push({
        ministryCode: code,
        instituteCode,
        name,
        schoolLevel: schoolLevel(type),
        typeLabel: titleCase(type),
        ...place,
        latitude: town.lat,
        longitude: town.lng,
      });
    }
  }

  // Progress counts registry rows (one per school code): a site row once its site is stored, an
  // institute-level row once its institute is.
  const total = siteRows.length + instituteOnly.size;
  let loaded = 0;
  let reported = 0;
  const advance = (rows: number) => {
    loaded += rows;
    if (loaded - reported >= PROGRESS_EVERY) {
      reported = loaded;
      onProgress?.(loaded, total);
    }
  };
  onProgress?.(0, total);

  const idByCode = new Map<string, number>();
  await insertChunks([...instituteRows.values()], 1000, async (chunk) => {
    const rows = await db
      .insert(institutes)
      .values(chunk)
      .returning({ id: institutes.id, code: institutes.ministryCode });
    for (const r of rows) idByCode.set(r.code, r.id);
    advance(chunk.filter((i) => instituteOnly.has(i.ministryCode)).length);
  });
  const sites = siteRows
    .filter((s) => idByCode.has(s.instituteCode))
    .map(({ instituteCode, ...site }) => ({ ...site, instituteId: idByCode.get(instituteCode)! }));
  await insertChunks(sites, 1000, async (chunk) => {
    await db.insert(schoolSites).values(chunk);
    advance(chunk.length);
  });
  onProgress?.(total, total);
  // Fresh statistics and visibility map after a bulk load: the planner picks the indexes and counts
  // use index-only scans from the first request on (outside a transaction, as VACUUM requires).
  await db.execute(sql`vacuum analyze institutes`);
  await db.execute(sql`vacuum analyze school_sites`);
  // Their search rows too (decision 027): VACUUM also moves GIN's pending list into the trigram index.
  await db.execute(sql`vacuum analyze institute_search`);
  await db.execute(sql`vacuum analyze school_site_search`);
  return instituteRows.size;
}
