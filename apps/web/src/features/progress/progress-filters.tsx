import { useId } from 'react';
import { Form, Link, useLocation, useSubmit } from 'react-router';
import { PROGRESS_GROUP_LABELS, PROGRESS_GROUPS } from '@portale/shared/progress';
import { REGIONS } from '@portale/shared/registry';
import { FieldError } from '../../components/form/field.tsx';

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
  const invalid = (name: string) =>
    errors[name] ? { 'aria-invalid': true as const, 'aria-describedby': `${id}-${name}-error` } : {};
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
          <div className="form-group mb-0">
            <label htmlFor={`${id}-from`} className="active">
              Dal
            </label>
            <input
              id={`${id}-from`}
              name="from"
              type="date"
              className="form-control"
              defaultValue={query.from ?? from}
              {...invalid('from')}
            />
            <FieldError id={`${id}-from`} error={errors.from} />
          </div>
        </div>
        <div className="col-12 col-sm-6 col-lg-3">
          <div className="form-group mb-0">
            <label htmlFor={`${id}-to`} className="active">
              Al
            </label>
            <input
              id={`${id}-to`}
              name="to"
              type="date"
              className="form-control"
              defaultValue={query.to ?? to}
              {...invalid('to')}
            />
            <FieldError id={`${id}-to`} error={errors.to} />
          </div>
        </div>
        <div className="col-12 col-sm-6 col-lg-3">
          <div className="select-wrapper">
            <label htmlFor={`${id}-region`}>Regione</label>
            <select
              id={`${id}-region`}
              name="region"
              defaultValue={query.region ?? ''}
              {...invalid('region')}
            >
              <option value="">Tutte le regioni</option>
              {REGIONS.map((r) => (
                <option key={r} value={r}>
                  {r}
                </option>
              ))}
            </select>
            <FieldError id={`${id}-region`} error={errors.region} />
          </div>
        </div>
        <div className="col-12 col-sm-6 col-lg-3">
          <div className="select-wrapper">
            <label htmlFor={`${id}-groupBy`}>Raggruppa</label>
            <select
              id={`${id}-groupBy`}
              name="groupBy"
              defaultValue={query.groupBy ?? 'week'}
              {...invalid('groupBy')}
            >
              {PROGRESS_GROUPS.map((g) => (
                <option key={g} value={g}>
                  {PROGRESS_GROUP_LABELS[g]}
                </option>
              ))}
            </select>
            <FieldError id={`${id}-groupBy`} error={errors.groupBy} />
          </div>
        </div>
      </div>
      <div className="d-flex flex-wrap gap-2 mt-3">
        <button type="submit" className="btn btn-primary">
          Mostra
        </button>
        <Link to={pathname} className="btn btn-outline-primary">
          Ultime 26 settimane
        </Link>
      </div>
    </Form>
  );
}
