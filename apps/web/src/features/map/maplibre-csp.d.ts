// MapLibre's CSP build: the same API as 'maplibre-gl', with its worker as a separate file served by
// us (our CSP allows no blob: workers).
declare module 'maplibre-gl/dist/maplibre-gl-csp.js' {
  import * as maplibregl from 'maplibre-gl';
  export default maplibregl;
}
