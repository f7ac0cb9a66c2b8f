import { Link } from 'react-router';
import { href } from '@portale/shared/pages';
import {
  exportTemplates,
  listTemplates,
  TEMPLATE_CHANNEL_LABELS,
  TEMPLATE_CHANNELS,
  type TemplateSummary,
} from '@portale/shared/templates';
import { listColumnHelper } from '../../components/data-table/data-table.tsx';
import { FilterBar, type SelectFilter } from '../../components/data-table/filter-bar.tsx';
import { sortOptionsOf } from '../../components/data-table/list-params.ts';
import { ListResults } from '../../components/data-table/list-results.tsx';
import { formatShortDateTime } from '../../lib/format.ts';
import { type ListLoaderData } from '../../lib/list-loader.ts';

/** The URL param of the template open in the editor (the page has no record route). */
export const KEY_PARAM = 'chiave';
const DEFAULT_SORT = 'key';

type Row = TemplateSummary & { id: number };
const editorHref = (key: string) => `${href('portal.templates')}?${KEY_PARAM}=${encodeURIComponent(key)}`;

const column = listColumnHelper<Row>();
const COLUMNS = [
  column.accessor('key', {
    header: 'Chiave',
    meta: { rowHeader: true },
    cell: (c) => <Link to={editorHref(c.getValue())}>{c.getValue()}</Link>,
  }),
  column.accessor('channel', { header: 'Canale', cell: (c) => TEMPLATE_CHANNEL_LABELS[c.getValue()] }),
  column.accessor('subject', {
    header: 'Oggetto o titolo',
    enableSorting: false,
    cell: (c) => c.getValue() ?? '—',
  }),
  column.accessor('version', { header: 'Versione' }),
  column.accessor('updatedAt', {
    header: 'Aggiornato',
    cell: (c) => `${formatShortDateTime(c.getValue())}, ${c.row.original.updatedBy ?? 'sistema'}`,
  }),
];
const SORT_OPTIONS = sortOptionsOf([
  { value: 'key', label: 'Chiave' },
  { value: 'channel', label: 'Canale' },
  { value: 'version', label: 'Versione' },
  { value: 'updatedAt', label: 'Ultimo aggiornamento' },
]);
const FILTERS: SelectFilter[] = [
  {
    name: 'channel',
    label: 'Canale',
    anyLabel: 'Tutti',
    options: TEMPLATE_CHANNELS.map((c) => ({ value: c, label: TEMPLATE_CHANNEL_LABELS[c] })),
  },
];

/** The list of templates (list pattern). */
export function TemplateList({ data }: { data: ListLoaderData<typeof listTemplates> }) {
  return (
    <>
      <FilterBar
        label="Cerca nei modelli"
        query={data.query}
        search={{ label: 'Cerca', hint: 'Parte della chiave, dell’oggetto o del testo.' }}
        selects={FILTERS}
        sortOptions={SORT_OPTIONS}
        defaultSort={DEFAULT_SORT}
        errors={data.problem?.errors}
      />
      <ListResults
        query={data.query}
        result={data.result as { items: Row[]; total: number; page: number; pageSize: number } | null}
        problem={data.problem}
        caption="Modelli di e-mail, SMS e documenti"
        columns={COLUMNS}
        defaultSort={DEFAULT_SORT}
        nouns={{ one: 'modello trovato', many: 'modelli trovati' }}
        noMatch="Nessun modello corrisponde alla ricerca e ai filtri."
        exportEndpoint={exportTemplates}
        exportName="modelli"
      />
    </>
  );
}
