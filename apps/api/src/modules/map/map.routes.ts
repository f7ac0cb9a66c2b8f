import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { getMapBoundaries, getMapSchoolSites, type BoundaryLayer } from '@portale/shared/map';
import { dataVersions } from '../../lib/data-version.repository.ts';
import { registerEndpoint } from '../../plugins/endpoint-route.ts';
import { mapSchoolSites, PLACES_TOPIC, type MapPlaces } from './map.repository.ts';

interface Encoded {
  etag: string;
  json: Buffer;
  gzip: Buffer;
}

/** The last few answers by ETag: a repeated call sends the same bytes without compressing them again. */
class EncodedCache {
  private readonly entries = new Map<string, Encoded>();
  constructor(private readonly size: number) {}
  encode(json: string): Encoded {
    // The text is made bytes once, for the hash and for the answer.
    const bytes = Buffer.from(json);
    const etag = `W/"${createHash('sha1').update(bytes).digest('base64url')}"`;
    const hit = this.entries.get(etag);
    if (hit) {
      this.entries.delete(etag);
      this.entries.set(etag, hit);
      return hit;
    }
    // Level 4: half the time of the default 6 for 4 % more bytes (the map: 13 ms against 31, 171 KB against 165).
    const entry = { etag, json: bytes, gzip: gzipSync(bytes, { level: 4 }) };
    this.entries.set(etag, entry);
    while (this.entries.size > this.size) this.entries.delete(this.entries.keys().next().value!);
    return entry;
  }
}

function acceptsGzip(request: FastifyRequest): boolean {
  return /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
}

function matches(request: FastifyRequest, etag: string): boolean {
  const header = request.headers['if-none-match'];
  if (!header) return false;
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t.replace(/^W\//, '') === bare;
  });
}

/**
 * Sends JSON with an ETag: 304 when the client holds it already, gzip when accepted. The browser
 * revalidates every time (`no-cache`): a change in the data changes the ETag at once.
 */
function sendCached(
  request: FastifyRequest,
  reply: FastifyReply,
  entry: Encoded,
  cacheControl = 'private, no-cache',
) {
  void reply
    .header('etag', entry.etag)
    .header('cache-control', cacheControl)
    .header('vary', 'accept-encoding');
  if (matches(request, entry.etag)) return reply.status(304).send();
  void reply.type('application/json; charset=utf-8');
  if (acceptsGzip(request)) return reply.header('content-encoding', 'gzip').send(entry.gzip);
  return reply.send(entry.json);
}

/** The map: every plesso (compact, cacheable) and the base map's boundaries (our own GeoJSON). */
export async function mapRoutes(app: FastifyInstance) {
  const answers = new EncodedCache(8);
  const boundaries = new Map<BoundaryLayer, Promise<Encoded>>();
  const boundaryFile = (layer: BoundaryLayer) =>
    join(app.env.DATA_DIR, 'geo', layer === 'regioni' ? 'regioni.geojson' : 'province.geojson');

  // The answer of each filter set, kept while the data it was built from is unchanged (decision 020):
  // a call costs one indexed read of the data version, and the query runs again only after a write.
  const byVersion = new Map<string, Encoded>();
  // The plessi of each set of place filters, kept until a write moves one: after a write of
  // participation, detectors or states, the answer is rebuilt from them and one narrow query.
  const places = new Map<string, MapPlaces>();
  registerEndpoint(app, getMapSchoolSites, {}, async (request, reply) => {
    const [version, placesVersion] = await dataVersions(app.db, ['map', PLACES_TOPIC]);
    const key = `${version} ${JSON.stringify(Object.entries(request.query).sort())}`;
    let entry = byVersion.get(key);
    if (!entry) {
      // Built after the version was read: at least as new as that version, never older.
      entry = answers.encode(
        JSON.stringify(await mapSchoolSites(app.db, request.query, places, placesVersion)),
      );
      byVersion.set(key, entry);
      while (byVersion.size > 16) byVersion.delete(byVersion.keys().next().value!);
    }
    return sendCached(request, reply, entry);
  });

  registerEndpoint(app, getMapBoundaries, {}, async (request, reply) => {
    const { layer } = request.query;
    let entry = boundaries.get(layer);
    if (!entry) {
      // Read once per process; a failed read is tried again on the next call.
      entry = readFile(boundaryFile(layer), 'utf8').then((text) =>
        new EncodedCache(1).encode(JSON.stringify(JSON.parse(text))),
      );
      entry.catch(() => boundaries.delete(layer));
      boundaries.set(layer, entry);
    }
    return sendCached(request, reply, await entry, 'private, max-age=86400');
  });
}
