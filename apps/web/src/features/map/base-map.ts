// The base map (the land and its borders) drawn with Canvas 2D under MapLibre's transparent WebGL
// canvas, in step with every frame MapLibre draws. Without a GPU, WebGL runs on the CPU (SwiftShader)
// and a fill layer covering the view cost each frame a stencil pass and a fill pass: the land alone
// halved the frame rate at zoom 9 (bench/map-browser.mjs). Canvas 2D fills the same paths in a
// fraction of that, and with a GPU it costs as little. Decision 022.
import type { Map as MapLibreMap } from 'maplibre-gl';
import maplibregl from 'maplibre-gl/dist/maplibre-gl-csp.js';
import type { FeatureCollection, Geometry } from 'geojson';

export type BaseMapLayer = 'regioni' | 'province';

/** Below this zoom the regions are drawn; from it, the provinces. */
const PROVINCE_ZOOM = 6;
const LAND = '#f4f5f6';
const BORDER: Record<BaseMapLayer, string> = { regioni: '#5f6b78', province: '#8f9baa' };

// Paths hold Web Mercator coordinates × 2^20 from a corner near Italy: Canvas 2D keeps path points as
// 32-bit floats, and these stay small enough for a fraction of a pixel of precision up to zoom 17.
const SCALE = 2 ** 20;
const ORIGIN = maplibregl.MercatorCoordinate.fromLngLat([6, 47]);
// Two fixed points whose place on screen gives the scale and the offset of the frame (the map never
// rotates or tilts: dragRotate and pitchWithRotate are off).
const A: [number, number] = [6, 47];
const B: [number, number] = [19, 36];
const B_MERCATOR = maplibregl.MercatorCoordinate.fromLngLat(B);

function pathOf(data: FeatureCollection<Geometry | null>): Path2D {
  const path = new Path2D();
  const ring = (points: number[][]) => {
    points.forEach(([lon, lat], i) => {
      const m = maplibregl.MercatorCoordinate.fromLngLat([lon!, Math.max(-85, Math.min(85, lat!))]);
      const x = (m.x - ORIGIN.x) * SCALE;
      const y = (m.y - ORIGIN.y) * SCALE;
      if (i === 0) path.moveTo(x, y);
      else path.lineTo(x, y);
    });
    path.closePath();
  };
  for (const feature of data.features) {
    const geometry = feature.geometry;
    if (geometry?.type === 'Polygon') geometry.coordinates.forEach(ring);
    else if (geometry?.type === 'MultiPolygon')
      geometry.coordinates.forEach((polygon) => polygon.forEach(ring));
  }
  return path;
}

export interface BaseMap {
  setData(layer: BaseMapLayer, data: FeatureCollection<Geometry | null>): void;
  remove(): void;
}

/** Draws the land under `map`'s canvas (the sea is the container's CSS background). */
export function attachBaseMap(map: MapLibreMap): BaseMap {
  const container = map.getContainer();
  const canvas = document.createElement('canvas');
  canvas.className = 'school-map-base';
  canvas.setAttribute('aria-hidden', 'true');
  container.insertBefore(canvas, container.firstChild);
  const context = canvas.getContext('2d');
  const paths = new Map<BaseMapLayer, Path2D>();

  const draw = () => {
    if (!context) return;
    const ratio = window.devicePixelRatio || 1;
    const width = container.clientWidth;
    const height = container.clientHeight;
    if (canvas.width !== Math.round(width * ratio) || canvas.height !== Math.round(height * ratio)) {
      canvas.width = Math.round(width * ratio);
      canvas.height = Math.round(height * ratio);
      canvas.style.width = `${width}px`;
      canvas.style.height = `${height}px`;
    }
    context.setTransform(1, 0, 0, 1, 0, 0);
    context.clearRect(0, 0, canvas.width, canvas.height);
    const layer: BaseMapLayer =
      map.getZoom() < PROVINCE_ZOOM || !paths.has('province') ? 'regioni' : 'province';
    const path = paths.get(layer);
    if (!path) return;
    const a = map.project(A);
    const b = map.project(B);
    const scale = (b.x - a.x) / ((B_MERCATOR.x - ORIGIN.x) * SCALE);
    context.setTransform(ratio * scale, 0, 0, ratio * scale, ratio * a.x, ratio * a.y);
    context.fillStyle = LAND;
    context.fill(path);
    // A one-pixel border whatever the zoom.
    context.lineWidth = 1 / scale;
    context.strokeStyle = BORDER[layer];
    context.stroke(path);
  };
  map.on('render', draw);
  map.on('resize', draw);

  return {
    setData(layer, data) {
      paths.set(layer, pathOf(data));
      draw();
    },
    remove() {
      map.off('render', draw);
      map.off('resize', draw);
      canvas.remove();
    },
  };
}
