// The MapLibre map of the plessi, loaded only by /portale/mappa (and lazily there): no map code in
// any other page's bundle. The base map is our own region and province boundaries: no tile server.
import { useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { Link } from 'react-router';
import type { BBox, FeatureCollection, Point } from 'geojson';
import type {
  GeoJSONSource,
  Map as MapLibreMap,
  MapGeoJSONFeature,
  Popup as MapLibrePopup,
  StyleSpecification,
} from 'maplibre-gl';
import maplibregl from 'maplibre-gl/dist/maplibre-gl-csp.js';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-csp-worker.js?url';
import 'maplibre-gl/dist/maplibre-gl.css';
import {
  ADHESION_STATE_LABELS,
  ADHESION_STATES,
  getSchoolSite,
  type SchoolSiteDetail,
} from '@portale/shared/registry';
import { getMapBoundaries, type MapSiteColumns } from '@portale/shared/map';
import { href } from '@portale/shared/pages';
import { callApi } from '../../lib/api-client.ts';
import { formatNumber } from '../../lib/format.ts';
import { attachBaseMap } from './base-map.ts';
import { ITALY_BOUNDS, STATE_COLORS } from './map-labels.ts';
import {
  SINGLE_ZOOM,
  MIN_ZOOM,
  placeIndexOf,
  clustersOf,
  aroundView,
  viewWithin,
  type Singles,
  singlesOf,
  singlesAround,
  toPlaces,
  EMPTY,
  boundsOf,
} from './map-geometry.ts';

maplibregl.setWorkerUrl(workerUrl);
// One worker: it tiles the clusters and the single plessi of the view. The land is drawn on the main
// thread (base-map.ts), so a second worker had nothing to do side by side; its start (compiling the
// ~800 KB worker script, 140–210 ms) took one of the two cores of a small machine away from the first view.
maplibregl.setWorkerCount(1);
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

const stateColorExpression = [
  'match',
  ['get', 's'],
  ...ADHESION_STATES.flatMap((state, i) => [i, STATE_COLORS[state]]),
  '#5f6b78',
] as unknown as string;

/**
 * The map's style: the clusters of the first view and the single plessi with their layers, there from
 * the start, so that the clusters reach MapLibre's worker while the map is being built (adding them on
 * `load` waited for the first frame). No background layer: the sea is the container's CSS background,
 * the land is drawn under the map's canvas by base-map.ts (decision 022).
 */
function styleOf(clusters: FeatureCollection<Point>): StyleSpecification {
  // Participating: filled with the state's colour; not participating: a ring of that colour.
  const singlePaint = {
    'circle-color': ['case', ['==', ['get', 'p'], 1], stateColorExpression, '#ffffff'],
    'circle-stroke-color': ['case', ['==', ['get', 'p'], 1], '#ffffff', stateColorExpression],
    'circle-stroke-width': ['case', ['==', ['get', 'p'], 1], 1.5, 3],
    'circle-radius': ['interpolate', ['linear'], ['zoom'], 8, 5, 15, 8],
  } as never;
  return {
    version: 8,
    sources: {
      // The view's clusters and places (placeIndexOf): a cluster's `n` is its number of plessi.
      places: { type: 'geojson', data: clusters },
      sites: { type: 'geojson', data: EMPTY },
    },
    layers: [
      {
        id: 'clusters',
        type: 'circle',
        source: 'places',
        maxzoom: SINGLE_ZOOM,
        filter: ['>', ['get', 'n'], 1],
        paint: {
          'circle-color': '#17324d',
          'circle-opacity': 0.85,
          'circle-stroke-color': '#ffffff',
          'circle-stroke-width': 2,
          'circle-radius': ['step', ['get', 'n'], 13, 50, 17, 500, 22, 5000, 28],
        },
      },
      // A place with one plesso is that plesso; the spread single plessi take over at SINGLE_ZOOM.
      {
        id: 'place-sites',
        type: 'circle',
        source: 'places',
        maxzoom: SINGLE_ZOOM,
        filter: ['==', ['get', 'n'], 1],
        paint: singlePaint,
      },
      { id: 'sites', type: 'circle', source: 'sites', minzoom: SINGLE_ZOOM, paint: singlePaint },
    ],
  };
}

/** The view that shows every place (the data's bounds), or Italy when none has coordinates. */
const FIT = { padding: 40, maxZoom: 12 };

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
  /** The ids of the plessi on the map (those with coordinates). */
  siteIds(): number[];
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
        Stato: {ADHESION_STATE_LABELS[site.adhesionState]} ·{' '}
        {site.participating ? 'Partecipa' : 'Non partecipa'}
      </p>
      <Link to={href('portal.site', { siteId: site.id })}>Apri la scheda del plesso</Link>
    </div>
  );
}

/** The map: clusters (number of plessi on top), single plessi coloured by state, click → popup. */
export default function SchoolMap({ sites }: { sites: MapSiteColumns }) {
  const container = useRef<HTMLDivElement>(null);
  const mapRef = useRef<MapLibreMap | null>(null);
  const popupRef = useRef<MapLibrePopup | null>(null);
  const [popupNode] = useState(() => document.createElement('div'));
  const [selected, setSelected] = useState<Selected | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const sitesRef = useRef(sites);
  sitesRef.current = sites;
  const resetSingles = useRef(() => {});
  /** Shows new plessi (new filters) and fits the view to them. */
  const showPlacesRef = useRef<(sites: MapSiteColumns) => void>(() => {});

  // The map itself, once.
  useEffect(() => {
    if (!container.current) return;
    let map: MapLibreMap;
    const styledWith = sitesRef.current;
    const places = toPlaces(styledWith);
    let index = placeIndexOf(places);
    try {
      map = new maplibregl.Map({
        container: container.current,
        bounds: boundsOf(places.features) ?? ITALY_BOUNDS,
        fitBoundsOptions: FIT,
        maxZoom: 17,
        minZoom: MIN_ZOOM,
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
      setFailed(
        'Il browser non può disegnare la mappa (WebGL non disponibile). La tabella qui sotto riporta gli stessi dati.',
      );
      return;
    }
    mapRef.current = map;
    // The style comes once the camera is set: it carries the clusters of that first view.
    let shown = clustersOf(index, map);
    map.setStyle(styleOf(shown.data));
    /** The clusters of the view, handed over when the zoom level changes or a pan leaves the area they cover. */
    const showClusters = (force = false) => {
      const source = map.getSource('places') as GeoJSONSource | undefined;
      if (!source) return;
      if (!force && Math.floor(map.getZoom()) === shown.zoom && viewWithin(map, shown.box)) return;
      shown = clustersOf(index, map);
      source.setData(shown.data);
    };
    showPlacesRef.current = (sites) => {
      const next = toPlaces(sites);
      index = placeIndexOf(next);
      const bounds = boundsOf(next.features);
      if (bounds) map.fitBounds(bounds, { ...FIT, duration: 0 });
      showClusters(true);
    };
    map.touchZoomRotate.disableRotation();
    const baseMap = attachBaseMap(map);
    map.addControl(new maplibregl.NavigationControl({ showCompass: false }), 'top-right');
    map.addControl(
      new maplibregl.AttributionControl({
        compact: true,
        customAttribution: 'Confini: ISTAT; openpolis/geojson-italy (CC BY 4.0)',
      }),
      'bottom-right',
    );

    const labels = new Map<string, InstanceType<typeof maplibregl.Marker>>();
    // The single plessi (spread around their place) are built after the clusters are drawn, when the
    // browser is idle (or at once if the map gets near them first): not in the way of the first view.
    // From SINGLE_ZOOM, MapLibre gets those around the view.
    let singlesFrom: MapSiteColumns | null = null;
    let singles: Singles | null = null;
    let singlesBox: BBox | null = null;
    const prepareSingles = (): Singles => {
      if (!singles || singlesFrom !== sitesRef.current) {
        singlesFrom = sitesRef.current;
        singles = singlesOf(singlesFrom);
        singlesBox = null;
      }
      return singles;
    };
    const showSingles = () => {
      const source = map.getSource('sites') as GeoJSONSource | undefined;
      if (!source || map.getZoom() < SINGLE_ZOOM) return;
      const current = prepareSingles();
      if (singlesBox && viewWithin(map, singlesBox)) return;
      singlesBox = aroundView(map);
      source.setData(singlesAround(current, singlesBox));
    };
    const whenIdle = (work: () => void) =>
      typeof requestIdleCallback === 'function'
        ? requestIdleCallback(work, { timeout: 3000 })
        : setTimeout(work, 500);
    resetSingles.current = () => {
      singlesFrom = null;
      singles = null;
      singlesBox = null;
      (map.getSource('sites') as GeoJSONSource | undefined)?.setData(EMPTY);
      whenIdle(prepareSingles);
      showSingles();
    };
    /** The key and the number of plessi of a drawn cluster, place or single plesso. */
    const counted = (f: MapGeoJSONFeature): [string, number] =>
      f.layer.id === 'sites'
        ? [`s${f.properties.id}`, 1]
        : f.properties.cluster
          ? [`c${f.properties.cluster_id}`, Number(f.properties.n)]
          : [`p${f.properties.k}`, Number(f.properties.n)];
    const hook: MapTestHook = {
      map,
      firstClustersAt: null,
      drawnTotal() {
        const seen = new Set<string>();
        let total = 0;
        for (const f of map.queryRenderedFeatures({ layers: ['clusters', 'place-sites', 'sites'] })) {
          const [key, n] = counted(f);
          if (seen.has(key)) continue;
          seen.add(key);
          total += n;
        }
        return total;
      },
      async focusSite(id) {
        const feature = prepareSingles().features.find((f) => f.id === id);
        if (!feature) return null;
        const [lon, lat] = feature.geometry.coordinates as [number, number];
        map.jumpTo({ center: [lon, lat], zoom: 16 });
        await new Promise((resolve) => map.once('idle', resolve));
        const point = map.project([lon, lat]);
        const rect = map.getCanvas().getBoundingClientRect();
        return { x: rect.left + point.x, y: rect.top + point.y };
      },
      siteIds() {
        const { id, place, places } = sitesRef.current;
        return Array.from(id).filter(
          (_, i) => !Number.isNaN(places.lon[place[i]!]!) && !Number.isNaN(places.lat[place[i]!]!),
        );
      },
    };
    window.__portaleMap = hook;

    // Cluster counts: WebGL text needs font files from a server; the numbers are small DOM labels instead.
    const updateLabels = () => {
      if (!map.getLayer('clusters')) return;
      const keep = new Set<string>();
      for (const f of map.queryRenderedFeatures({ layers: ['clusters'] })) {
        const [key, count] = counted(f);
        if (keep.has(key)) continue;
        keep.add(key);
        if (labels.has(key)) continue;
        const el = document.createElement('div');
        el.className = 'map-cluster-label';
        el.textContent = count >= 10_000 ? `${formatNumber(Math.round(count / 1000))}k` : formatNumber(count);
        el.dataset.count = String(count);
        el.setAttribute('aria-hidden', 'true');
        el.style.pointerEvents = 'none';
        const [lon, lat] = (f.geometry as Point).coordinates as [number, number];
        labels.set(key, new maplibregl.Marker({ element: el }).setLngLat([lon, lat]).addTo(map));
      }
      for (const [key, marker] of labels) {
        if (!keep.has(key)) {
          marker.remove();
          labels.delete(key);
        }
      }
    };
    // A new zoom level has clusters of its own; a pan may leave the area whose clusters were handed over.
    map.on('zoom', () => showClusters());
    map.on('moveend', () => showClusters());
    // The numbers follow their clusters while the map moves; new clusters get theirs when it stops.
    map.on('moveend', updateLabels);
    map.on('idle', updateLabels);
    map.on('zoomstart', () => {
      for (const marker of labels.values()) marker.remove();
      labels.clear();
    });
    map.on('zoomend', () => {
      if (map.getZoom() >= SINGLE_ZOOM - 1) prepareSingles();
    });
    map.on('zoom', showSingles);
    map.on('moveend', showSingles);
    // The first frame with the plessi clustered: what the benchmark times from navigation.
    const onRender = () => {
      if (hook.firstClustersAt !== null || !map.getSource('places') || !map.isSourceLoaded('places')) return;
      hook.firstClustersAt = performance.now();
      performance.mark('portale-map-first-clusters');
      map.off('render', onRender);
      whenIdle(prepareSingles);
      // The boundaries follow the plessi: the first view is not kept waiting for them.
      for (const layer of ['regioni', 'province'] as const) {
        callApi(getMapBoundaries, { query: { layer } })
          .then((data) => baseMap.setData(layer, data as unknown as FeatureCollection))
          .catch(() => undefined);
      }
    };
    map.on('render', onRender);

    // The style is read on the next frame: plessi that changed before it was read (new filters) go in now.
    map.on('load', () => {
      if (sitesRef.current !== styledWith) showPlacesRef.current(sitesRef.current);
    });

    map.on('click', 'clusters', (event) => {
      const feature = event.features?.[0];
      if (!feature) return;
      const center = (feature.geometry as Point).coordinates as [number, number];
      if (!feature.properties.cluster) {
        // One place with several plessi: they part at SINGLE_ZOOM.
        map.easeTo({ center, zoom: Math.max(map.getZoom() + 1, SINGLE_ZOOM + 0.5) });
        return;
      }
      map.easeTo({
        center,
        zoom: Math.min(index.getClusterExpansionZoom(Number(feature.properties.cluster_id)), 17),
      });
    });
    const openSite = (event: maplibregl.MapLayerMouseEvent) => {
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
        .then((site) =>
          setSelected((current) => (current?.id === id ? { id, site, problem: null } : current)),
        )
        .catch(() =>
          setSelected((current) =>
            current?.id === id
              ? { id, site: null, problem: 'Non è stato possibile caricare il plesso. Riprova.' }
              : current,
          ),
        );
    };
    map.on('click', 'sites', openSite);
    map.on('click', 'place-sites', openSite);
    for (const layer of ['clusters', 'place-sites', 'sites']) {
      map.on('mouseenter', layer, () => (map.getCanvas().style.cursor = 'pointer'));
      map.on('mouseleave', layer, () => (map.getCanvas().style.cursor = ''));
    }

    return () => {
      for (const marker of labels.values()) marker.remove();
      popupRef.current?.remove();
      baseMap.remove();
      map.remove();
      mapRef.current = null;
      if (window.__portaleMap === hook) delete window.__portaleMap;
    };
  }, [popupNode]);

  // New filters: new points, and the view fits them.
  useEffect(() => {
    const map = mapRef.current;
    if (!map?.getSource('places')) return;
    popupRef.current?.remove();
    showPlacesRef.current(sites);
    resetSingles.current();
  }, [sites]);

  if (failed) return <div className="alert alert-warning">{failed}</div>;
  return (
    <>
      <div ref={container} className="school-map" data-testid="school-map" />
      {selected && createPortal(<PopupContent selected={selected} />, popupNode)}
    </>
  );
}
