import { useId, useState } from 'react';
import { Form, Link, useLocation, useSubmit } from 'react-router';
import { PROVINCES, PROVINCES_BY_REGION, REGIONS } from '@portale/shared/registry';
import { Button } from 'design-react-kit';
import { FilterSelectField } from '../../components/form/select-field.tsx';
import { MAP_SELECTS } from './map-labels.ts';

interface Props {
  query: Record<string, string>;
  errors: Record<string, string>;
}

function Select(props: {
  id: string;
  name: string;
  label: string;
  anyLabel: string;
  value: string;
  options: readonly { value: string; label: string }[];
  error?: string | undefined;
  onChange: (v: string) => void;
}) {
  return (
    <FilterSelectField
      id={props.id}
      name={props.name}
      label={props.label}
      value={props.value}
      onChange={(e) => props.onChange(e.target.value)}
      error={props.error}
      anyLabel={props.anyLabel}
      options={props.options}
    />
  );
}

/** The map's filters: a GET form whose fields are the URL's params (it works without JavaScript too). */
export function MapFilters({ query, errors }: Props) {
  const id = useId();
  const { pathname } = useLocation();
  const submit = useSubmit();
  const [values, setValues] = useState(query);
  const [seen, setSeen] = useState(query);
  if (seen !== query) {
    setSeen(query);
    setValues(query);
  }
  const set = (name: string, value: string) => setValues((v) => ({ ...v, [name]: value }));
  const region = values.region ?? '';
  const provinces = (PROVINCES_BY_REGION as Record<string, readonly string[]>)[region] ?? PROVINCES;
  return (
    <Form
      method="get"
      role="search"
      aria-label="Filtra i plessi della mappa"
      className="filter-bar mb-4"
      onSubmit={(event) => {
        // With JavaScript the URL keeps only what filters something (no `region=&level=`).
        event.preventDefault();
        const params = new URLSearchParams();
        for (const [key, value] of new FormData(event.currentTarget))
          if (typeof value === 'string' && value) params.set(key, value);
        void submit(params, { method: 'get', action: pathname, preventScrollReset: true });
      }}
    >
      <div className="row g-3">
        <div className="col-12 col-sm-6 col-lg-4">
          <Select
            id={`${id}-region`}
            name="region"
            label="Regione"
            anyLabel="Tutte le regioni"
            options={REGIONS.map((r) => ({ value: r, label: r }))}
            value={region}
            error={errors.region}
            onChange={(value) => {
              const keep =
                value &&
                (PROVINCES_BY_REGION as Record<string, readonly string[]>)[value]?.includes(
                  values.province ?? '',
                );
              setValues((v) => ({ ...v, region: value, province: keep ? (v.province ?? '') : '' }));
            }}
          />
        </div>
        <div className="col-12 col-sm-6 col-lg-4">
          <Select
            id={`${id}-province`}
            name="province"
            label="Provincia"
            anyLabel="Tutte le province"
            options={provinces.map((p) => ({ value: p, label: p }))}
            value={values.province ?? ''}
            error={errors.province}
            onChange={(v) => set('province', v)}
          />
        </div>
        {MAP_SELECTS.map((filter) => (
          <div className="col-12 col-sm-6 col-lg-4" key={filter.name}>
            <Select
              id={`${id}-${filter.name}`}
              name={filter.name}
              label={filter.label}
              anyLabel={filter.anyLabel}
              options={filter.options}
              value={values[filter.name] ?? ''}
              error={errors[filter.name]}
              onChange={(v) => set(filter.name, v)}
            />
          </div>
        ))}
      </div>
      <div className="d-flex flex-wrap gap-2 mt-3">
        <Button type="submit" color="primary">
          Applica i filtri
        </Button>
        <Link to={pathname} className="btn btn-outline-primary">
          Azzera i filtri
        </Link>
      </div>
    </Form>
  );
}
