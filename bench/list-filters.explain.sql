-- GET /receipts filters on 1,000,000 receipts: the plans use the migration-011 indexes.
-- psql -h 127.0.0.1 -U postgres -d test -f bench/list-filters.explain.sql
drop schema if exists explain_1m cascade;
create schema explain_1m;
set search_path = explain_1m;
create table receipts (id uuid primary key, tenant text not null, body jsonb not null, receipt_hash text not null, created_at timestamptz not null, external_id text, revoked_at timestamptz);
insert into receipts select gen_random_uuid(), 't' || (i % 10), jsonb_build_object('decision', (array['ALLOW','FLAG','BLOCK'])[1 + i % 3], 'subject', jsonb_build_object('bundleId', 'b' || (i / 3), 'docHash', 'sha256:' || md5(i::text) || md5((i+1)::text))), 'sha256:' || md5(i::text), now() - (i || ' seconds')::interval, case when i % 7 = 0 then 'run-' || i end, null from generate_series(1, 1000000) i;
create index receipts_tenant_page on receipts (tenant, created_at, id);
create index receipts_tenant_decision on receipts (tenant, (body->>'decision'), created_at desc, id desc);
create index receipts_tenant_bundle on receipts (tenant, (body->'subject'->>'bundleId'), created_at desc, id desc);
create index receipts_tenant_doc_hash on receipts (tenant, (body->'subject'->>'docHash'), created_at desc, id desc);
analyze receipts;
explain (analyze, costs off, timing on) select id from receipts r where tenant = 't3' and r.body->'subject'->>'docHash' = 'sha256:' || md5('3') || md5('4') order by created_at desc, id desc limit 51;
explain (analyze, costs off, timing on) select id from receipts r where tenant = 't3' and r.body->'subject'->>'bundleId' = 'b1' order by created_at desc, id desc limit 51;
explain (analyze, costs off, timing on) select id from receipts r where tenant = 't3' and r.body->>'decision' = 'BLOCK' order by created_at desc, id desc limit 51;
drop schema explain_1m cascade;
