// The face of modules/adhesion-panel: what other modules may import from it (decision 044). Nothing else leaves it.
export { ADHESION_PANEL_TEMPLATES } from './adhesion-panel.templates.ts';
