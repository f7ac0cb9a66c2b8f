import { defineEndpoint } from '../http/endpoint.ts';
import {
  MapBoundariesQuerySchema,
  MapBoundariesSchema,
  MapFiltersSchema,
  MapSchoolSitesSchema,
} from './map.schemas.ts';

/**
 * Every plesso matching the filters, in the compact columnar encoding of `MapSchoolSitesSchema`.
 * Cacheable: an ETag (hash of the answer) and `304 Not Modified` on `If-None-Match`; gzip when accepted.
 */
export const getMapSchoolSites = defineEndpoint({
  method: 'GET',
  path: '/api/map/school-sites',
  permission: 'read:dashboard',
  tag: 'map',
  summary: 'Tutti i plessi filtrati, in forma compatta, per la mappa',
  query: MapFiltersSchema,
  response: MapSchoolSitesSchema,
});

/** The base map: region or province boundaries (GeoJSON), served by us so the map needs no tile server. */
export const getMapBoundaries = defineEndpoint({
  method: 'GET',
  path: '/api/map/boundaries',
  permission: 'read:dashboard',
  tag: 'map',
  summary: 'Confini delle regioni o delle province (GeoJSON) per la mappa di base',
  query: MapBoundariesQuerySchema,
  response: MapBoundariesSchema,
});
