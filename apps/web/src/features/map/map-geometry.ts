// The geometry of the map of the plessi, without MapLibre's runtime: plessi as points spread around
// their place, places clustered (Supercluster on the main thread, decision 023), the singles of a view
// (KDBush), and boxes. Pure functions of the site columns, tested beside site-counts.test.ts.
import type { BBox, Feature, FeatureCollection, Point } from 'geojson';
import type { Map as MapLibreMap } from 'maplibre-gl';
import KDBush from 'kdbush';
import Supercluster from 'supercluster';
import { ADHESION_STATES } from '@portale/shared/registry';
import type { MapSiteColumns } from '@portale/shared/map';

/**
 * Zoom from which plessi are single points. Below it the map draws places (the registry places plessi
 * at their municipality's centroid: ~7,000 places for ~57,000 plessi), clustered, each with its number
 * of plessi: the clustering works on places, not plessi, and is eight times cheaper.
 */
export const SINGLE_ZOOM = 14;
export const MIN_ZOOM = 4;
/** Spacing of plessi that share a place (the municipality's centroid), in degrees: about 25 m. */
export const SPREAD = 0.00025;
export const GOLDEN_ANGLE = Math.PI * (3 - Math.sqrt(5));

/**
 * Points of the map. The registry places a plesso at its municipality's centroid, so plessi of one
 * place share their coordinates: they are laid on a small spiral around it, so that each can be seen
 * and clicked once the clusters open up.
 */
export function toFeatures(
  sites: MapSiteColumns,
): FeatureCollection<Point, { id: number; s: number; p: number }> {
  const seen = new Uint32Array(sites.places.count);
  const states = stateIndexes(sites);
  const features: FeatureCollection<Point, { id: number; s: number; p: number }>['features'] = [];
  for (let i = 0; i < sites.count; i++) {
    const place = sites.place[i]!;
    const x = sites.places.lon[place]!;
    const y = sites.places.lat[place]!;
    if (Number.isNaN(x) || Number.isNaN(y)) continue;
    const k = seen[place]!++;
    const r = SPREAD * Math.sqrt(k);
    const a = k * GOLDEN_ANGLE;
    const lon = x + (r * Math.cos(a)) / Math.cos((y * Math.PI) / 180);
    const lat = y + r * Math.sin(a);
    const id = sites.id[i]!;
    features.push({
      type: 'Feature',
      id,
      geometry: { type: 'Point', coordinates: [lon, lat] },
      properties: { id, s: states[sites.state[i]!] ?? -1, p: sites.participating[i]! },
    });
  }
  return { type: 'FeatureCollection', features };
}

/**
 * Zoom up to which places are clustered. From the next zoom a place stands alone: at zoom 12 a cluster's
 * 48 pixels are about 1.7 km, and of the ~7,000 places only ~30 still share a cluster at zoom 11.
 */
export const CLUSTER_MAX_ZOOM = 11;
/** Up to this zoom the clusters of the whole country are few (~1,300 at zoom 8) and are all handed over at once. */
export const WHOLE_COUNTRY_ZOOM = 8;

/** The number of plessi of a cluster: the sum of its places'. */
export type ClusterSum = { n: number };
export type PlaceIndex = Supercluster<PlaceProperties, ClusterSum>;

/**
 * The places clustered on the main thread (supercluster, the library MapLibre clusters with), and only
 * the clusters of the view handed to MapLibre. A clustered GeoJSON source made MapLibre copy the ~7,000
 * places object by object to its worker (128 ms of the main thread) and build every zoom's clusters
 * there (330 ms of cold script) before the first view; this index is built in ~50 ms (decision 023).
 * The clusters are those of the view's whole zoom level, as MapLibre's own tiles show them.
 */
export function placeIndexOf(places: FeatureCollection<Point, PlaceProperties>): PlaceIndex {
  return new Supercluster<PlaceProperties, ClusterSum>({
    radius: 48,
    extent: 512,
    minZoom: MIN_ZOOM,
    maxZoom: CLUSTER_MAX_ZOOM,
    map: (place) => ({ n: place.n }),
    reduce: (sum, other) => {
      sum.n += other.n;
    },
  }).load(places.features);
}

export const WORLD: BBox = [-180, -85, 180, 85];

/** The clusters and places to draw for `map`'s view, and the area and zoom they cover. */
export function clustersOf(
  index: PlaceIndex,
  map: MapLibreMap,
): { data: FeatureCollection<Point>; box: BBox; zoom: number } {
  const zoom = Math.floor(map.getZoom());
  // Around the view, a pan finds its clusters until it stops.
  const box = zoom > WHOLE_COUNTRY_ZOOM ? aroundView(map) : WORLD;
  return { data: { type: 'FeatureCollection', features: index.getClusters(box, zoom) }, box, zoom };
}

/** The view and one view's width and height around it. */
export function aroundView(map: MapLibreMap): BBox {
  const bounds = map.getBounds();
  const [w, s, e, n] = [bounds.getWest(), bounds.getSouth(), bounds.getEast(), bounds.getNorth()];
  return [
    Math.max(-180, w - (e - w)),
    Math.max(-85, s - (n - s)),
    Math.min(180, e + (e - w)),
    Math.min(85, n + (n - s)),
  ];
}

/** Whether the view of `map` lies within `box`. */
export function viewWithin(map: MapLibreMap, box: BBox): boolean {
  const bounds = map.getBounds();
  return within([bounds.getWest(), bounds.getSouth(), bounds.getEast(), bounds.getNorth()], box);
}

/** Whether `inner` lies within `outer`. */
export function within(inner: BBox, outer: BBox): boolean {
  return inner[0] >= outer[0] && inner[1] >= outer[1] && inner[2] <= outer[2] && inner[3] <= outer[3];
}

export type SiteFeature = ReturnType<typeof toFeatures>['features'][number];

/**
 * The single plessi, spread around their places, with a spatial index: MapLibre gets those around the
 * view only (a view from zoom 14 holds tens to hundreds). Handing it all ~57,000 blocked the main
 * thread for 370–470 ms just after the first view (MapLibre copies a GeoJSON source object by object
 * to its worker; decision 023).
 */
export interface Singles {
  features: SiteFeature[];
  index: KDBush;
}

export function singlesOf(sites: MapSiteColumns): Singles {
  const { features } = toFeatures(sites);
  const index = new KDBush(Math.max(1, features.length));
  for (const feature of features)
    index.add(feature.geometry.coordinates[0]!, feature.geometry.coordinates[1]!);
  index.finish();
  return { features, index };
}

export function singlesAround(singles: Singles, box: BBox): FeatureCollection<Point> {
  return {
    type: 'FeatureCollection',
    features: singles.index.range(box[0], box[1], box[2], box[3]).map((i) => singles.features[i]!),
  };
}

/** A place: `n` plessi (`p` of them participating); with one plesso, its id and state index, else -1. */
export interface PlaceProperties {
  k: number;
  n: number;
  p: number;
  id: number;
  s: number;
}

/** The plessi grouped by place: what the clusters are made of below SINGLE_ZOOM. */
export function toPlaces(sites: MapSiteColumns): FeatureCollection<Point, PlaceProperties> {
  const n = new Uint32Array(sites.places.count);
  const p = new Uint32Array(sites.places.count);
  const first = new Int32Array(sites.places.count).fill(-1);
  const states = stateIndexes(sites);
  for (let i = 0; i < sites.count; i++) {
    const place = sites.place[i]!;
    if (n[place]!++ === 0) first[place] = i;
    p[place]! += sites.participating[i]!;
  }
  const features: Feature<Point, PlaceProperties>[] = [];
  for (let place = 0; place < sites.places.count; place++) {
    const lon = sites.places.lon[place]!;
    const lat = sites.places.lat[place]!;
    if (!n[place] || Number.isNaN(lon) || Number.isNaN(lat)) continue;
    const single = n[place] === 1;
    const k = features.length;
    features.push({
      type: 'Feature',
      id: k,
      geometry: { type: 'Point', coordinates: [lon, lat] },
      properties: {
        k,
        n: n[place]!,
        p: p[place]!,
        id: single ? sites.id[first[place]!]! : -1,
        s: single ? (states[sites.state[first[place]!]!] ?? -1) : -1,
      },
    });
  }
  return { type: 'FeatureCollection', features };
}

/** Each state of the answer's dictionary as its index in ADHESION_STATES (what the colours follow). */
export function stateIndexes(sites: MapSiteColumns): number[] {
  return sites.dictionaries.state.map((state) => ADHESION_STATES.indexOf(state));
}

export const EMPTY: FeatureCollection<Point> = { type: 'FeatureCollection', features: [] };

export function boundsOf(
  features: FeatureCollection<Point>['features'],
): [number, number, number, number] | null {
  if (!features.length) return null;
  let [w, s, e, n] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const f of features) {
    const [x, y] = f.geometry.coordinates as [number, number];
    w = Math.min(w, x);
    e = Math.max(e, x);
    s = Math.min(s, y);
    n = Math.max(n, y);
  }
  return [w, s, e, n];
}
