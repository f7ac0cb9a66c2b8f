/**
 * Which API answers the service worker keeps for offline use (issue 39, decision 051): only the GETs
 * behind the detector's pages — the signed-in user, the list of the detector's plessi, one plesso, its
 * teachers, its visits, the detector's visits and those pages' access checks. Nothing else, so no staff
 * list or another feature's data ever lands in the cache. Network first: the cached copy answers only
 * when the network fails.
 *
 * A regular expression from the start of the URL (the API may be another origin, known only at run
 * time): Workbox matches a cross-origin request only when the match starts at index 0. Exports
 * (`…/export`) and calendars are not matched.
 */
export const DETECTOR_API_PATTERN =
  /^https?:\/\/[^/]+\/api\/(?:auth\/me|detectors\/me\/school-sites(?:\/\d+)?|detectors\/me\/visits|school-sites\/\d+\/(?:teachers|visits)|portal\/pages\/portal\.(?:detector-sites|detector-site|site-teachers|site-visits))(?:\?[^#]*)?$/;
