import { Badge } from 'design-react-kit';
import { ADHESION_STATE_LABELS, type AdhesionState } from '@portale/shared/registry';

/** Badge colour of each adhesion state (Bootstrap Italia palette). */
export const ADHESION_STATE_COLORS: Record<AdhesionState, string> = {
  nessuna: 'secondary',
  iscritto: 'primary',
  adesione_firmata: 'primary',
  attivo: 'success',
  da_correggere: 'warning',
  respinto: 'danger',
  ritirato: 'secondary',
};

/** The adhesion state of an institute as a coloured badge with its Italian name. */
export function AdhesionBadge({ state }: { state: AdhesionState }) {
  return (
    // White text on every colour (7.5:1 on Bootstrap Italia's dark amber; its navy `text-dark` gave 2.39:1).
    <Badge color={ADHESION_STATE_COLORS[state]}>{ADHESION_STATE_LABELS[state]}</Badge>
  );
}
