import { ADHESION_STATE_LABELS, ADHESION_STATES } from '@portale/shared/registry';
import { STATE_COLORS } from './map-labels.ts';

/** What the colours and shapes of the map mean (shared by the map page and the staff home's small map). */
export function MapLegend() {
  return (
    <div className="small" data-testid="map-legend">
      <h2 className="h6">Legenda</h2>
      <ul className="list-unstyled mb-2">
        {ADHESION_STATES.map((state) => (
          <li key={state}>
            <span
              className="map-legend-swatch"
              style={{ background: STATE_COLORS[state] }}
              aria-hidden="true"
            />
            {ADHESION_STATE_LABELS[state]}
          </li>
        ))}
      </ul>
      <ul className="list-unstyled mb-2">
        <li>
          <span
            className="map-legend-swatch"
            style={{ background: '#5f6b78', border: '2px solid #fff', outline: '1px solid #5f6b78' }}
            aria-hidden="true"
          />
          Cerchio pieno: il plesso partecipa
        </li>
        <li>
          <span
            className="map-legend-swatch"
            style={{ background: '#fff', border: '3px solid #5f6b78' }}
            aria-hidden="true"
          />
          Cerchio vuoto: il plesso non partecipa
        </li>
        <li>
          <span className="map-legend-swatch" style={{ background: '#17324d' }} aria-hidden="true" />
          Gruppo di plessi vicini: il numero dice quanti (selezionalo per ingrandire)
        </li>
      </ul>
      <p className="mb-0">
        Il colore è lo stato di adesione dell'istituto. Ogni plesso è collocato nel centro del suo comune: i
        plessi dello stesso comune sono disposti intorno a quel punto.
      </p>
    </div>
  );
}
