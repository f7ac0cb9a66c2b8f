// The MapLibre map of the plessi, loaded only by /portale/mappa (and lazily there): no map code in
// any other page's bundle. The base map is our own region and province boundaries: no tile server.
import { useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { Link } from 'react-router';
import type { FeatureCollection, Point } from 'geojson';
import type { GeoJSONSource, Map as MapLibreMap, MapGeoJSONFeature, Popup as MapLibrePopup } from 'maplibre-gl';
import maplibregl from 'maplibre-gl/dist/maplibre-gl-csp.js';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-csp-worker.js?url';
import 'maplibre-gl/dist/maplibre-gl.css';
import { ADHESION_STATE_LABELS, ADHESION_STATES, getSchoolSite, type SchoolSiteDetail } from '@portale/shared/registry';
import { getMapBoundaries, type MapSchoolSite } from '@portale/shared/map';
import { href } from '@portale/shared/pages';
import { callApi } from '../../lib/api-client.ts';
import { formatNumber } from '../../lib/format.ts';
import { ITALY_BOUNDS, STATE_COLORS } from './map-labels.ts';

maplibregl.setWorkerUrl(workerUrl);
// The worker starts (and loads its script) with this chunk, before the map needs it.
maplibregl.prewarm();

const LOCALE = {
  'Map.Title': 'Mappa dei plessi',
  'NavigationControl.ZoomIn': 'Ingrandisci',
  'NavigationControl.ZoomOut': 'Riduci',
  'NavigationControl.ResetBearing': "Ripristina l'orientamento a nord",
  'Popup.Close': 'Chiudi',
  'AttributionControl.ToggleAttribution': 'Mostra o nascondi le fonti',
};

/** Zoom from which plessi are single points (the clusters open up). */
const CLUSTER_MAX_ZOOM = 13;
/** Spacing of plessi that share a place (the municipality's centroid), in degrees: about 25 m. */
const SPREAD = 0.00025;
const GOLDEN_ANGLE = Math.PI * (3 - Math.sqrt(5));

/**
 * Points of the map. The registry places a plesso at its municipality's centroid, so plessi of one
 * municipality share a place: they are laid on a small spiral around it, so that each can be seen and
 * clicked once the clusters open up.
 */
export function toFeatures(sites: readonly MapSchoolSite[]): FeatureCollection<Point, { id: number; s: number; p: number }> {
  const seen = new Map<string, number>();
  const features: FeatureCollection<Point, { id: number; s: number; p: number }>['features'] = [];
  for (const site of sites) {
    if (site.lon === null || site.lat === null) continue;
    const key = `${site.lon},${site.lat}`;
    const k = seen.get(key) ?? 0;
    seen.set(key, k + 1);
    const r = SPREAD * Math.sqrt(k);
    const a = k * GOLDEN_ANGLE;
    const lon = site.lon + (r * Math.cos(a)) / Math.cos((site.lat * Math.PI) / 180);
    const lat = site.lat + r * Math.sin(a);
    features.push({ type: 'Feature', id: site.id, geometry: { type: 'Point', coordinates: [lon, lat] }, properties: { id: site.id, s: ADHESION_STATES.indexOf(site.state), p: site.participating ? 1 : 0 } });
  }
  return { type: 'FeatureCollection', features };
}

function boundsOf(features: FeatureCollection<Point>['features']): [number, number, number, number] | null {
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

const stateColorExpression = ['match', ['get', 's'], ...ADHESION_STATES.flatMap((state, i) => [i, STATE_COLORS[state]]), '#5f6b78'] as unknown as string;

interface Selected {
  id: number;
  site: SchoolSiteDetail | null;
  problem: string | null;
}

/** What the e2e tests and the benchmark read and drive (a WebGL feature is not in the DOM). */
export interface MapTestHook {
  map: MapLibreMap;
  /** Plessi summed over the clusters and the single points drawn now. */
  drawnTotal(): number;
  /** Flies to one plesso (single point) and answers its position on screen, in CSS pixels of the page. */
  focusSite(id: number): Promise<{ x: number; y: number } | null>;
  firstClustersAt: number | null;
}
declare global {
  interface Window {
    __portaleMap?: MapTestHook;
  }
}

function PopupContent({ selected }: { selected: Selected }) {
  if (selected.problem) return <p className="mb-0 small">{selected.problem}</p>;
  if (!selected.site) return <p className="mb-0 small">Caricamento del plesso…</p>;
  const site = selected.site;
  return (
    <div className="small" data-testid="map-popup">
      <p className="fw-bold mb-1">{site.name}</p>
      <p className="mb-1">
        {site.ministryCode} · {site.municipalityName} ({site.province})
      </p>
      <p className="mb-1">Istituto: {site.instituteName}</p>
      <p className="mb-1">
        Stato: {ADHESION_STATE_LABELS[site.adhesionState]} · {site.participating ? 'Partecipa' : 'Non partecipa'}
      </p>
      <Link to={href('portal.site', { siteId: site.id })}>Apri la scheda del plesso</Link>
    </div>
  );
}

/** The map: clusters (number of plessi on top), single plessi coloured by state, click → popup. */
export default function SchoolMap({ sites }: { sites: readonly MapSchoolSite[] }) {
  const container = useRef<HTMLDivElement>(null);
  const mapRef = useRef<MapLibreMap | null>(null);
  const popupRef = useRef<MapLibrePopup | null>(null);
  const [popupNode] = useState(() => document.createElement('div'));
  const [selected, setSelected] = useState<Selected | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const sitesRef = useRef(sites);
  sitesRef.current = sites;

  // The map itself, once.
  useEffect(() => {
    if (!container.current) return;
    let map: MapLibreMap;
    try {
      map = new maplibregl.Map({
        container: container.current,
        style: { version: 8, sources: {}, layers: [{ id: 'sea', type: 'background', paint: { 'background-color': '#dbe8f2' } }] },
        bounds: ITALY_BOUNDS,
        maxZoom: 17,
        minZoom: 4,
        attributionControl: false,
        locale: LOCALE,
        dragRotate: false,
        renderWorldCopies: false,
        fadeDuration: 0,
        pitchWithRotate: false,
        // Keyboard users tab through the canvas (arrows pan, + and - zoom) and out of it: no trap.
        keyboard: true,
      });
    } catch {
      setFailed('Il browser non può disegnare la mappa (WebGL non disponibile). La tabella qui sotto riporta gli stessi dati.');
      return;
    }
    mapRef.current = map;
    map.touchZoomRotate.disableRotation();
    map.addControl(new maplibregl.NavigationControl({ showCompass: false }), 'top-right');
    map.addControl(new maplibregl.AttributionControl({ compact: true, customAttribution: 'Confini: ISTAT; openpolis/geojson-italy (CC BY 4.0)' }), 'bottom-right');

    const labels = new Map<number, InstanceType<typeof maplibregl.Marker>>();
    const hook: MapTestHook = {
      map,
      firstClustersAt: null,
      drawnTotal() {
        const features = map.queryRenderedFeatures({ layers: ['clusters', 'sites'] });
        const seen = new Set<string>();
        let total = 0;
        for (const f of features) {
          const key = f.properties.cluster ? `c${f.properties.cluster_id}` : `s${f.properties.id}`;
          if (seen.has(key)) continue;
          seen.add(key);
          total += f.properties.cluster ? Number(f.properties.point_count) : 1;
        }
        return total;
      },
      async focusSite(id) {
        const source = map.getSource('sites') as GeoJSONSource | undefined;
        const data = (await source?.getData()) as FeatureCollection<Point> | undefined;
        const feature = data?.features.find((f) => f.id === id);
        if (!feature) return null;
        const [lon, lat] = feature.geometry.coordinates as [number, number];
        map.jumpTo({ center: [lon, lat], zoom: 16 });
        await new Promise((resolve) => map.once('idle', resolve));
        const point = map.project([lon, lat]);
        const rect = map.getCanvas().getBoundingClientRect();
        return { x: rect.left + point.x, y: rect.top + point.y };
      },
    };
    window.__portaleMap = hook;

    // Cluster counts: WebGL text needs font files from a server; the numbers are small DOM labels instead.
    const updateLabels = () => {
      if (!map.getLayer('clusters')) return;
      const keep = new Set<number>();
      for (const f of map.queryRenderedFeatures({ layers: ['clusters'] }) as MapGeoJSONFeature[]) {
        const clusterId = Number(f.properties.cluster_id);
        if (keep.has(clusterId)) continue;
        keep.add(clusterId);
        if (labels.has(clusterId)) continue;
        const count = Number(f.properties.point_count);
        const el = document.createElement('div');
        el.className = 'map-cluster-label';
        el.textContent = count >= 10_000 ? `${formatNumber(Math.round(count / 1000))}k` : formatNumber(count);
        el.dataset.count = String(count);
        el.setAttribute('aria-hidden', 'true');
        el.style.pointerEvents = 'none';
        const [lon, lat] = (f.geometry as Point).coordinates as [number, number];
        labels.set(clusterId, new maplibregl.Marker({ element: el }).setLngLat([lon, lat]).addTo(map));
      }
      for (const [clusterId, marker] of labels) {
        if (!keep.has(clusterId)) {
          marker.remove();
          labels.delete(clusterId);
        }
      }
    };
    // The numbers follow their clusters while the map moves; new clusters get theirs when it stops.
    map.on('moveend', updateLabels);
    map.on('idle', updateLabels);
    map.on('zoomstart', () => {
      for (const marker of labels.values()) marker.remove();
      labels.clear();
    });
    // The first frame with the plessi clustered: what the benchmark times from navigation.
    const onRender = () => {
      if (hook.firstClustersAt !== null || !map.getSource('sites') || !map.isSourceLoaded('sites')) return;
      hook.firstClustersAt = performance.now();
      performance.mark('portale-map-first-clusters');
      map.off('render', onRender);
    };
    map.on('render', onRender);

    map.on('load', () => {
      // Sea, land (regions), province lines, region lines; points on top. Boundaries come from our API.
      for (const layer of ['regioni', 'province'] as const) {
        map.addSource(layer, { type: 'geojson', data: { type: 'FeatureCollection', features: [] } });
      }
      map.addLayer({ id: 'land', type: 'fill', source: 'regioni', paint: { 'fill-color': '#f4f5f6' } });
      map.addLayer({ id: 'province-lines', type: 'line', source: 'province', paint: { 'line-color': '#a9b3bd', 'line-width': 0.6 } });
      map.addLayer({ id: 'region-lines', type: 'line', source: 'regioni', paint: { 'line-color': '#5f6b78', 'line-width': 1.2 } });
      for (const layer of ['regioni', 'province'] as const) {
        callApi(getMapBoundaries, { query: { layer } })
          .then((data) => (map.getSource(layer) as GeoJSONSource | undefined)?.setData(data as unknown as FeatureCollection))
          .catch(() => undefined);
      }
      const features = toFeatures(sitesRef.current);
      map.addSource('sites', {
        type: 'geojson',
        data: features,
        cluster: true,
        clusterRadius: 48,
        clusterMaxZoom: CLUSTER_MAX_ZOOM,
        clusterProperties: { participating: ['+', ['get', 'p']] },
      });
      map.addLayer({
        id: 'clusters',
        type: 'circle',
        source: 'sites',
        filter: ['has', 'point_count'],
        paint: {
          'circle-color': '#17324d',
          'circle-opacity': 0.85,
          'circle-stroke-color': '#ffffff',
          'circle-stroke-width': 2,
          'circle-radius': ['step', ['get', 'point_count'], 13, 50, 17, 500, 22, 5000, 28],
        },
      });
      map.addLayer({
        id: 'sites',
        type: 'circle',
        source: 'sites',
        filter: ['!', ['has', 'point_count']],
        paint: {
          // Participating: filled with the state's colour; not participating: a ring of that colour.
          'circle-color': ['case', ['==', ['get', 'p'], 1], stateColorExpression, '#ffffff'],
          'circle-stroke-color': ['case', ['==', ['get', 'p'], 1], '#ffffff', stateColorExpression],
          'circle-stroke-width': ['case', ['==', ['get', 'p'], 1], 1.5, 3],
          'circle-radius': ['interpolate', ['linear'], ['zoom'], 8, 5, 15, 8],
        },
      });
      const bounds = boundsOf(features.features);
      if (bounds) map.fitBounds(bounds, { padding: 40, maxZoom: 12, duration: 0 });
    });

    map.on('click', 'clusters', (event) => {
      const feature = event.features?.[0];
      if (!feature) return;
      const source = map.getSource('sites') as GeoJSONSource;
      void source.getClusterExpansionZoom(Number(feature.properties.cluster_id)).then((zoom) => {
        map.easeTo({ center: (feature.geometry as Point).coordinates as [number, number], zoom: Math.min(zoom, 17) });
      });
    });
    map.on('click', 'sites', (event) => {
      const feature = event.features?.[0];
      if (!feature) return;
      const id = Number(feature.properties.id);
      popupRef.current?.remove();
      popupRef.current = new maplibregl.Popup({ maxWidth: '280px', focusAfterOpen: true })
        .setLngLat((feature.geometry as Point).coordinates as [number, number])
        .setDOMContent(popupNode)
        .addTo(map);
      setSelected({ id, site: null, problem: null });
      callApi(getSchoolSite, { params: { siteId: id } })
        .then((site) => setSelected((current) => (current?.id === id ? { id, site, problem: null } : current)))
        .catch(() => setSelected((current) => (current?.id === id ? { id, site: null, problem: 'Non è stato possibile caricare il plesso. Riprova.' } : current)));
    });
    for (const layer of ['clusters', 'sites']) {
      map.on('mouseenter', layer, () => (map.getCanvas().style.cursor = 'pointer'));
      map.on('mouseleave', layer, () => (map.getCanvas().style.cursor = ''));
    }

    return () => {
      for (const marker of labels.values()) marker.remove();
      popupRef.current?.remove();
      map.remove();
      mapRef.current = null;
      if (window.__portaleMap === hook) delete window.__portaleMap;
    };
  }, [popupNode]);

  // New filters: new points, and the view fits them.
  useEffect(() => {
    const map = mapRef.current;
    const source = map?.getSource('sites') as GeoJSONSource | undefined;
    if (!map || !source) return;
    popupRef.current?.remove();
    const data = toFeatures(sites);
    source.setData(data);
    const bounds = boundsOf(data.features);
    if (bounds) map.fitBounds(bounds, { padding: 40, maxZoom: 12, duration: 0 });
  }, [sites]);

  if (failed) return <div className="alert alert-warning">{failed}</div>;
  return (
    <>
      <div ref={container} className="school-map" data-testid="school-map" />
      {selected && createPortal(<PopupContent selected={selected} />, popupNode)}
    </>
  );
}
