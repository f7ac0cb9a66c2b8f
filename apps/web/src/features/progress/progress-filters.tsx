import { useId } from 'react';
import { Form, Link, useLocation, useSubmit } from 'react-router';
import { Button } from 'design-react-kit';
import { PROGRESS_GROUP_LABELS, PROGRESS_GROUPS } from '@portale/shared/progress';
import { REGION_OPTIONS } from '@portale/shared/registry';
import { DateTimeField } from '../../components/form/input-field.tsx';
import { FilterSelectField } from '../../components/form/select-field.tsx';

interface Props {
  query: Record<string, string>;
  /** The period the figures cover (the server's defaults filled in). */
  from: string;
  to: string;
  errors: Record<string, string>;
}

/** The period, the region and the grouping: a GET form whose fields are the URL's params. */
export function ProgressFilters({ query, from, to, errors }: Props) {
  const id = useId();
  const { pathname } = useLocation();
  const submit = useSubmit();
  return (
    <Form
      key={JSON.stringify(query)}
      method="get"
      role="search"
      aria-label="Scegli il periodo e il raggruppamento"
      className="filter-bar mb-4"
      onSubmit={(event) => {
        event.preventDefault();
        const params = new URLSearchParams();
        for (const [key, value] of new FormData(event.currentTarget))
          if (typeof value === 'string' && value && !(key === 'groupBy' && value === 'week'))
            params.set(key, value);
        void submit(params, { method: 'get', action: pathname, preventScrollReset: true });
      }}
    >
      <div className="row g-3">
        <div className="col-12 col-sm-6 col-lg-3">
          <DateTimeField
            id={`${id}-from`}
            name="from"
            type="date"
            label="Dal"
            fieldClassName="form-group mb-0"
            labelClassName="active"
            defaultValue={query.from ?? from}
            error={errors.from}
          />
        </div>
        <div className="col-12 col-sm-6 col-lg-3">
          <DateTimeField
            id={`${id}-to`}
            name="to"
            type="date"
            label="Al"
            fieldClassName="form-group mb-0"
            labelClassName="active"
            defaultValue={query.to ?? to}
            error={errors.to}
          />
        </div>
        <div className="col-12 col-sm-6 col-lg-3">
          {/* Bootstrap Italia's select-wrapper: the label floats over the select, which has no class of its own. */}
          <FilterSelectField
            id={`${id}-region`}
            name="region"
            label="Regione"
            defaultValue={query.region ?? ''}
            error={errors.region}

            anyLabel="Tutte le regioni"
            options={REGION_OPTIONS}
          />
        </div>
        <div className="col-12 col-sm-6 col-lg-3">
          <FilterSelectField
            id={`${id}-groupBy`}
            name="groupBy"
            label="Raggruppa"
            defaultValue={query.groupBy ?? 'week'}
            options={PROGRESS_GROUPS.map((g) => ({ value: g, label: PROGRESS_GROUP_LABELS[g] }))}
            error={errors.groupBy}
          />
        </div>
      </div>
      <div className="d-flex flex-wrap gap-2 mt-3">
        <Button color="primary" type="submit">
          Mostra
        </Button>
        <Link to={pathname} className="btn btn-outline-primary">
          Ultime 26 settimane
        </Link>
      </div>
    </Form>
  );
}
