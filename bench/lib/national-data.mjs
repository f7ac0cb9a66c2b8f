// Synthetic national volume for bench/national.mjs (issue 40), on a database already migrated and
// seeded with the full registry and the demo accounts (as `npm start` seeds it). Every table is filled
// by set-based statements (INSERT … SELECT over generate_series), never row by row, and every row fits
// the schema and its constraints. At scale S:
//   200k·S teachers (users, teacher role, profiles, one `insegnanti` review each),
//   100k·S survey responses (four fifths to the closed demo survey), 60k·S visits by 200·S detectors,
//   2M·S audit rows (a tenth of them by the super-admin, the actor the bench reads the audit of).
// The table `bench_national` records what was generated, so that a kept database (`--keep`) is not
// generated again.

const FIRST = [
  'Giulia',
  'Marco',
  'Francesca',
  'Luca',
  'Chiara',
  'Alessandro',
  'Sara',
  'Andrea',
  'Martina',
  'Matteo',
  'Elena',
  'Davide',
  'Valentina',
  'Simone',
  'Federica',
  'Lorenzo',
  'Silvia',
  'Stefano',
  'Paola',
  'Giorgio',
  'Anna',
  'Roberto',
  'Laura',
  'Paolo',
  'Maria',
  'Giuseppe',
  'Elisa',
  'Antonio',
  'Ilaria',
  'Fabio',
  'Roberta',
  'Nicola',
  'Serena',
  'Massimo',
  'Cristina',
  'Claudio',
  'Monica',
  'Daniele',
  'Barbara',
  'Emanuele',
];
const LAST = [
  'Rossi',
  'Russo',
  'Ferrari',
  'Esposito',
  'Bianchi',
  'Romano',
  'Colombo',
  'Ricci',
  'Marino',
  'Greco',
  'Bruno',
  'Gallo',
  'Conti',
  'De Luca',
  'Mancini',
  'Costa',
  'Giordano',
  'Rizzo',
  'Lombardi',
  'Moretti',
  'Barbieri',
  'Fontana',
  'Santoro',
  'Mariani',
  'Rinaldi',
  'Caruso',
  'Ferrara',
  'Galli',
  'Martini',
  'Leone',
  'Longo',
  'Gentile',
  'Martinelli',
  'Vitale',
  'Lombardo',
  'Serra',
  'Coppola',
  'De Santis',
  "D'Angelo",
  'Marchetti',
  'Parisi',
  'Villa',
  'Conte',
  'Ferraro',
  'Ferri',
  'Fabbri',
  'Bianco',
  'Marini',
  'Grasso',
  'Valentini',
  'Messina',
  'Sala',
  'De Angelis',
  'Gatti',
  'Pellegrini',
  'Palumbo',
  'Sanna',
  'Farina',
  'Rizzi',
  'Monti',
  'Cattaneo',
  'Morelli',
  'Amato',
  'Silvestri',
  'Mazza',
  'Testa',
  'Grassi',
  'Pellegrino',
  'Carbone',
  'Giuliani',
  'Benedetti',
  'Barone',
  'Rossetti',
  'Caputo',
  'Montanari',
  'Guerra',
  'Palmieri',
  'Bernardi',
  'Martino',
  'Fiore',
];

const literalArray = (values) =>
  `array[${values.map((v) => `'${v.replace(/'/g, "''")}'`).join(',')}]::text[]`;
const FIRST_SQL = literalArray(FIRST);
const LAST_SQL = literalArray(LAST);

/** JSON answers for one response (`g` is the row's number, so every row draws its own values). */
function answersSql(questions) {
  const parts = questions.map((q) => {
    const skip = q.required ? 'false' : `random() < 0.12 + 0 * g`;
    const opts = literalArray(q.options ?? []);
    let value;
    if (q.type === 'scelta_singola')
      value = `to_jsonb((${opts})[1 + floor(random() * ${q.options.length})::int])`;
    else if (q.type === 'scelta_multipla')
      value = `(select coalesce(jsonb_agg(o), '[]'::jsonb) from unnest(${opts}) o where random() < 0.4 + 0 * g)`;
    else if (q.type === 'scala') value = `to_jsonb(1 + floor(random() * 5)::int)`;
    else value = `to_jsonb('Risposta ' || g)`;
    return `'${q.id}', case when ${skip} then null else ${value} end`;
  });
  return `jsonb_strip_nulls(jsonb_build_object(${parts.join(', ')}))`;
}

async function timed(client, label, text, log) {
  const started = performance.now();
  const res = await client.query(text);
  log(`  ${label}: ${res.rowCount ?? ''} righe in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return res;
}

/** Fills the database at `scale` (a number, may be fractional). Returns the seconds it took. */
export async function generate(client, scale, log = console.log) {
  const started = performance.now();
  const T = Math.round(200_000 * scale);
  const R = Math.round(100_000 * scale);
  const V = Math.round(60_000 * scale);
  const A = Math.round(2_000_000 * scale);
  const D = Math.max(1, Math.round(200 * scale));
  const {
    rows: [demo],
  } = await client.query(`select password_hash from users where email = 'insegnante@demo.test'`);
  const hash = demo.password_hash.replace(/'/g, "''");
  const role = async (name) =>
    (await client.query('select id from roles where name = $1', [name])).rows[0].id;
  const teacherRole = await role('teacher');
  const detectorRole = await role('detector');
  const {
    rows: [admin],
  } = await client.query(`select id from users where email = 'superadmin@demo.test'`);

  await client.query(
    'create table if not exists bench_national (scale double precision not null, seconds double precision, at timestamptz not null default now())',
  );
  await client.query('set synchronous_commit = off');
  // Random plessi: numbered 0…n−1, picked by a hash of the row number (an array of 63k ids would be
  // detoasted again for every row).
  await client.query('create temporary table bench_sites (rn int primary key, id bigint not null)');
  await client.query(
    'insert into bench_sites select row_number() over (order by id) - 1, id from school_sites',
  );
  await client.query('analyze bench_sites');
  const sites = (await client.query('select count(*)::int as n from bench_sites')).rows[0].n;
  const site = (hash) => `(select id from bench_sites where rn = (${hash}) % ${sites})`;

  await timed(
    client,
    'utenti insegnanti',
    `
    insert into users (email, password_hash, first_name, last_name, phone, email_verified_at, phone_verified_at, last_login_at, created_at, updated_at)
    select 'bench-t' || g || '@bench.test', '${hash}',
           (${FIRST_SQL})[1 + (g * 7 % ${FIRST.length})], (${LAST_SQL})[1 + ((g::bigint * 7919) % ${LAST.length})::int] || case when g % 3 = 0 then '' else ' ' || (${LAST_SQL})[1 + (g % ${LAST.length})] end,
           '+39 3' || lpad((g % 1000000000)::text, 9, '0'),
           case when g % 10 < 9 then now() - (g % 700) * interval '1 day' end,
           case when g % 10 < 8 then now() - (g % 700) * interval '1 day' end,
           case when g % 4 = 0 then null else now() - (g % 90) * interval '1 day' end,
           now() - (g % 730) * interval '1 day' - (g % 86400) * interval '1 second', now()
    from generate_series(1, ${T}) g`,
    log,
  );
  await timed(
    client,
    'ruoli insegnante',
    `
    insert into user_roles (user_id, role_id) select id, ${teacherRole} from users where email like 'bench-t%@bench.test'`,
    log,
  );
  await timed(
    client,
    'profili insegnante',
    `
    insert into teacher_profiles (user_id, kind, school_site_id, subjects, review_state, created_at, updated_at)
    select u.id, (array['insegnante','insegnante','insegnante','educatore','altro'])[1 + u.id % 5],
           case when u.id % 20 = 0 then null else ${site('u.id * 2654435761')} end,
           '["Italiano"]'::jsonb,
           (array['approvata','approvata','approvata','approvata','approvata','in_attesa','in_attesa','da_correggere','respinta','approvata'])[1 + u.id % 10],
           u.created_at, u.created_at
    from users u where u.email like 'bench-t%@bench.test'`,
    log,
  );
  await timed(
    client,
    'revisioni insegnanti',
    `
    insert into reviews (type, subject_id, state, submitted_at, decided_at, decided_by_user_id, note)
    select 'insegnanti', tp.id, tp.review_state, tp.created_at,
           case when tp.review_state <> 'in_attesa' then tp.created_at + interval '2 days' end,
           case when tp.review_state <> 'in_attesa' then ${admin.id} end,
           case when tp.review_state in ('da_correggere','respinta') then 'Dati incompleti' end
    from teacher_profiles tp join users u on u.id = tp.user_id where u.email like 'bench-t%@bench.test'`,
    log,
  );

  await timed(
    client,
    'rilevatori',
    `
    insert into users (email, password_hash, first_name, last_name, email_verified_at, phone_verified_at, created_at, updated_at)
    select 'bench-d' || g || '@bench.test', '${hash}', (${FIRST_SQL})[1 + (g % ${FIRST.length})], 'Rilevatore ' || g, now(), now(), now() - interval '400 days', now()
    from generate_series(1, ${D}) g`,
    log,
  );
  await client.query(
    `insert into user_roles (user_id, role_id) select id, ${detectorRole} from users where email like 'bench-d%@bench.test'`,
  );
  await client.query(`insert into detector_profiles (user_id, provinces, active, created_at, updated_at)
    select id, array['RM','MI','NA'], true, now(), now() from users where email like 'bench-d%@bench.test'`);
  const firstDetector = (
    await client.query(`select min(id)::bigint as id from users where email like 'bench-d%@bench.test'`)
  ).rows[0].id;
  await timed(
    client,
    'visite',
    `
    insert into visits (school_site_id, detector_user_id, scheduled_at, state, report, outcome_note, review_state, reported_at, created_at, updated_at)
    select ${site('g::bigint * 40503')}, ${firstDetector} + g % ${D}, now() - (g % 700) * interval '1 day' + interval '10 hours',
           st, case when st = 'svolta' then 'Visita svolta, incontrati gli insegnanti.' end,
           case when st in ('annullata','mancata') then 'Scuola chiusa' end,
           case when st = 'svolta' then (array['approvata','approvata','in_attesa','da_correggere'])[1 + g % 4] end,
           case when st = 'svolta' then now() - (g % 700) * interval '1 day' + interval '1 day' end,
           now() - (g % 700) * interval '1 day' - interval '10 days', now()
    from generate_series(1, ${V}) g,
         lateral (select (array['svolta','svolta','svolta','pianificata','annullata','mancata'])[1 + g % 6] as st) x`,
    log,
  );
  await timed(
    client,
    'revisioni visite',
    `
    insert into reviews (type, subject_id, state, submitted_at, decided_at)
    select 'visite', v.id, v.review_state, v.reported_at, case when v.review_state <> 'in_attesa' then v.reported_at + interval '1 day' end
    from visits v where v.review_state is not null and v.report like 'Visita svolta, incontrati%'`,
    log,
  );

  const surveys = (
    await client.query(
      `select id, state from surveys where state in ('chiusa','aperta') order by state = 'chiusa' desc, id`,
    )
  ).rows;
  for (const [i, survey] of surveys.entries()) {
    const questions = (
      await client.query(
        'select id, type, required, options from survey_questions where survey_id = $1 order by position',
        [survey.id],
      )
    ).rows;
    const n = i === 0 ? Math.round(R * 0.8) : R - Math.round(R * 0.8);
    if (n <= 0 || questions.length === 0) continue;
    // A third from the teachers' own accounts (one per survey), the rest anonymous (access code used up and gone).
    await timed(
      client,
      `risposte (${survey.state})`,
      `
      insert into survey_responses (survey_id, school_site_id, user_id, answers, submitted_at)
      select ${survey.id}, coalesce(tp.school_site_id, ${site('g::bigint * 69069')}), tp.user_id, ${answersSql(questions)},
             now() - (g % 600) * interval '1 day' - (g % 3600) * interval '1 second'
      from generate_series(1, ${n}) g
      left join lateral (select t.user_id, t.school_site_id from teacher_profiles t where g % 3 = 0 and t.id = (select min(id) from teacher_profiles) + g / 3) tp on true`,
      log,
    );
    if (i === surveys.length - 1) break;
  }

  await timed(
    client,
    'audit',
    `
    insert into audit_log (actor_user_id, action, entity, entity_id, before, after, ip, at)
    select case when g % 10 = 0 then ${admin.id} else u0.first + (g * 31 % ${T}) end,
           (array['teacher.reviewed','user.updated','institute.updated','school-site.updated','auth.login'])[1 + g % 5],
           (array['teacher','user','institute','school-site', null])[1 + g % 5],
           case when g % 5 = 4 then null else (1 + g * 17 % ${T})::text end,
           case when g % 5 < 4 then jsonb_build_object('state', 'in_attesa') end,
           case when g % 5 < 4 then jsonb_build_object('state', 'approvata') end,
           '10.0.' || (g % 250) || '.' || (g % 200),
           now() - (g % 730) * interval '1 day' - (g % 86400) * interval '1 second'
    from generate_series(1, ${A}) g, (select min(id) as first from users where email like 'bench-t%@bench.test') u0`,
    log,
  );

  // As autovacuum leaves a table of a running deployment (it vacuums after inserts too): statistics, and
  // the visibility map that lets an index-only scan skip the heap.
  await timed(client, 'vacuum analyze', 'vacuum analyze', log);
  const seconds = (performance.now() - started) / 1000;
  await client.query('insert into bench_national (scale, seconds) values ($1, $2)', [scale, seconds]);
  return seconds;
}

/** The scale already generated in this database, or undefined. */
export async function generatedScale(client) {
  const { rows } = await client.query(`select to_regclass('bench_national') is not null as present`);
  if (!rows[0].present) return undefined;
  const { rows: done } = await client.query(
    'select scale, seconds from bench_national order by at desc limit 1',
  );
  return done[0];
}
