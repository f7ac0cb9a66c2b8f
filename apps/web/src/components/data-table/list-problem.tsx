import type { ListProblem as Problem } from '../../lib/list-loader.ts';

/** A list the API refused (422): its Italian message in the page, the fields' messages beside the filters. */
export function ListProblem({ problem }: { problem: Problem }) {
  return (
    <div className="alert alert-warning" role="alert" data-testid="list-problem">
      <p className="fw-semibold mb-1">{problem.message}</p>
      {Object.keys(problem.errors).length > 0 && (
        <ul className="mb-0">
          {Object.entries(problem.errors).map(([field, message]) => (
            <li key={field}>{message}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
