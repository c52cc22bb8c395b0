// Deals for every role (domain.md "Who sees what"), against the policy computed from the raw
// tables (policy-oracle.ts): lists and counts read the set of deals linked to the caller's visible
// meetings, one deal's lookup probes that deal's meetings (access/visibility.ts dealVisible), and
// both must agree with the policy, including deals the caller sees only through a linked meeting.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { dialectsUnderTest } from '../support/databases.ts';
import { planNodes } from '../support/postgres-plan.ts';
import { ANCHOR, EMAILS, type Seeded } from '../mcp/support.ts';
import type { Principal } from '../../src/access/principal.ts';
import { createUser } from '../../src/store/users.ts';
import { countDeals, countQuery, findVisibleDeal, listDeals, PROBES_PER_DEAL, type DealFilters, type DealSort } from '../../src/store/sales/deals.ts';
import { firstDealsPage, searchFirstPageQuery } from '../../src/store/sales/deal-first-page.ts';
import { dealVisibleTo, meetingVisibleTo, seededWorld, type RawDeal, type World } from './policy-oracle.ts';

const DAY = 86_400_000;
/** The first page's size in the checks of firstDealsPage: smaller than most callers' matches, so the total is counted. */
const FIRST_PAGE = 4;

/** `n` open deals of one owner and account, named `<name> <i>` (for the plan tests, which need thousands). */
async function addOpenDeals(s: Seeded, orgId: string, accountId: string, ownerId: string, name: string, n: number): Promise<void> {
  const deals = Array.from({ length: n }, (_, i) => ({
    org_id: orgId, id: `deal_${name.toLowerCase()}_${i}`, account_id: accountId, name: `${name} ${i}`, owner_id: ownerId, team_id: null, stage: 'discovery', status: 'open' as const,
    amount: 1000 + i, currency: 'USD', close_date: '2026-12-01', crm_system: 'none' as const, crm_opportunity_id: null, crm_url: null, crm_custom_fields: '{}', created_at: ANCHOR, updated_at: ANCHOR,
  }));
  for (let i = 0; i < n; i += 1000) await s.store.db.insertInto('deals').values(deals.slice(i, i + 1000)).execute();
}

/**
 * Deals owned by someone else that a caller sees only through a meeting linked to them: one on a
 * meeting the member owns, one on a meeting she attends, one on a meeting a manager's member owns.
 * The demo seed has the second kind for managers and viewers but not always for members. And the
 * other way round, deals no meeting links, seen only by their owner and the owner's manager.
 */
async function addLinkedDeals(s: Seeded, admin: Principal, manager: Principal, member: Principal, viewer: Principal): Promise<void> {
  const db = s.store.db;
  const orgId = admin.orgId;
  const account = (await db.selectFrom('accounts').select('id').where('org_id', '=', orgId).executeTakeFirstOrThrow()).id;
  const deal = (id: string) => ({
    org_id: orgId, id, account_id: account, name: `Linked ${id}`, owner_id: admin.userId, team_id: null, stage: 'discovery', status: 'open' as const, amount: 1000, currency: 'USD',
    close_date: '2026-12-01', crm_system: 'none' as const, crm_opportunity_id: null, crm_url: null, crm_custom_fields: '{}', created_at: ANCHOR, updated_at: ANCHOR,
  });
  const meeting = (id: string, owner: string, dealId: string) => ({
    org_id: orgId, id, title: `Linked ${id}`, start_at: ANCHOR - 2 * DAY, end_at: ANCHOR - 2 * DAY + 1_800_000, status: 'completed' as const, owner_id: owner,
    team_id: null, deal_id: dealId, account_id: account, meeting_type: 'external' as const, language: 'en', summary_md: null, key_points: '[]', next_steps: '[]',
    has_transcript: 0, transcript_reason: 'not_recorded', segment_count: 0, transcript_chars: 0, created_at: ANCHOR,
  });
  const managed = manager.managedMemberIds.find((id) => id !== member.userId)!;
  await db.insertInto('deals').values([deal('deal_linked_own'), deal('deal_linked_attended'), deal('deal_linked_managed')]).execute();
  // And deals seen only as their owner's (or the owner's manager's): no meeting links them. One
  // belongs to a manager of no team, who sees as a member does.
  const lone = await createUser(db, { orgId, email: 'lone.manager@northwind.example', name: 'Lone Manager', role: 'manager' });
  await db
    .insertInto('deals')
    .values([{ ...deal('deal_owned_unmet'), owner_id: member.userId }, { ...deal('deal_managed_unmet'), owner_id: managed }, { ...deal('deal_lone_unmet'), owner_id: lone.id }])
    .execute();
  await db
    .insertInto('meetings')
    .values([meeting('mtg_linked_own', member.userId, 'deal_linked_own'), meeting('mtg_linked_attended', admin.userId, 'deal_linked_attended'), meeting('mtg_linked_managed', managed, 'deal_linked_managed')])
    .execute();
  const person = (email: string, id: number) => ({ org_id: orgId, meeting_id: 'mtg_linked_attended', id, email, name: `Person ${id}`, user_id: null, side: 'seller' as const, company: null, title: null, talk_time_ms: 0 });
  await db.insertInto('participants').values([person(member.email, 1), person(viewer.email, 2)]).execute();
  // What the filters that stand for the policy (deals.ts filtersImplyPolicy) must not let through:
  // a deal the viewer owns (a viewer sees no deal by owning it), a deal linked only to a meeting
  // ahead that the viewer owns but does not attend (a viewer does not see a meeting by owning it),
  // and a deal of a team the manager manages, owned and met by no one he sees (a deal's team is not
  // part of the policy).
  const team = manager.managedTeamIds[0]!;
  await db
    .insertInto('deals')
    .values([{ ...deal('deal_viewer_owned'), owner_id: viewer.userId }, deal('deal_viewer_meets_ahead'), { ...deal('deal_team_outsider'), team_id: team }])
    .execute();
  await db
    .insertInto('meetings')
    .values({ ...meeting('mtg_viewer_ahead', viewer.userId, 'deal_viewer_meets_ahead'), start_at: ANCHOR + 2 * DAY, end_at: ANCHOR + 2 * DAY + 1_800_000, status: 'scheduled' as const })
    .execute();
}

const SORTS: Record<DealSort, { key: (d: RawDeal) => string | number; dir: 1 | -1 }> = {
  close_date_asc: { key: (d) => d.close_date, dir: 1 },
  close_date_desc: { key: (d) => d.close_date, dir: -1 },
  amount_desc: { key: (d) => d.amount, dir: -1 },
  amount_asc: { key: (d) => d.amount, dir: 1 },
};

/** Deal ids in a sort's order: its key, then the id, both in its direction. */
function inOrder(deals: RawDeal[], sort: DealSort): string[] {
  const { key, dir } = SORTS[sort];
  return [...deals].sort((a, b) => (key(a) < key(b) ? -dir : key(a) > key(b) ? dir : a.id < b.id ? -dir : dir)).map((d) => d.id);
}

/** The deals a filter keeps, by the filter's words (tools.md get_deals), from the raw rows. */
function keeps(w: World, p: Principal, f: DealFilters, d: RawDeal): boolean {
  const has = (text: string) => text.toLowerCase().includes(f.search!.toLowerCase());
  return (
    (f.search === undefined || has(d.name) || has(d.account_name) || has(d.account_domain)) &&
    (f.ownerId === undefined || d.owner_id === f.ownerId) &&
    (f.teamId === undefined || d.team_id === f.teamId) &&
    (f.status === undefined || d.status === f.status) &&
    (f.stages === undefined || f.stages.includes(d.stage)) &&
    (f.closeFrom === undefined || d.close_date >= f.closeFrom) &&
    (f.closeTo === undefined || d.close_date <= f.closeTo) &&
    (f.amountMin === undefined || d.amount >= f.amountMin) &&
    (f.amountMax === undefined || d.amount <= f.amountMax) &&
    (f.accountDomain === undefined || d.account_domain === f.accountDomain) &&
    (f.upcomingAfter === undefined || w.meetings.some((m) => m.deal_id === d.id && m.status === 'scheduled' && m.start_at > f.upcomingAfter! && meetingVisibleTo(w, p, m)))
  );
}

/** Every page of a list, `size` deals a page (one more says there is more), as the tool pages it. */
async function everyPage(s: Seeded, p: Principal, f: DealFilters, sort: DealSort, size = 7): Promise<string[]> {
  const seen: string[] = [];
  let position: [string | number, string] | null = null;
  for (let pages = 0; pages < 400; pages++) {
    const rows = await listDeals(s.store.db, p, f, sort, position, size + 1);
    assert.ok(rows.length <= size + 1, `a page of ${size} read ${rows.length} rows`);
    seen.push(...rows.slice(0, size).map((r) => r.id));
    if (rows.length <= size) break;
    const last = rows[size - 1]!;
    position = [sort.startsWith('amount') ? Number(last.amount) : last.close_date, last.id];
  }
  return seen;
}

/**
 * Many deals on few close dates and amounts (ties everywhere), owned across the organization, some
 * linked to past meetings (the viewer attends some) and some to scheduled meetings ahead: more
 * deals match than a page's first probe walks (deals.ts listDeals: four per deal it needs), so a
 * manager's or viewer's pages hand over from the probe to the set, at a position inside a tie.
 */
async function addTiedDeals(s: Seeded, admin: Principal, viewer: Principal): Promise<void> {
  const db = s.store.db;
  const orgId = admin.orgId;
  const account = (await db.selectFrom('accounts').select('id').where('org_id', '=', orgId).executeTakeFirstOrThrow()).id;
  const owners = (await db.selectFrom('users').select('id').where('org_id', '=', orgId).where('role', '!=', 'viewer').orderBy('email').execute()).map((u) => u.id);
  const deals = [];
  const meetings = [];
  const people = [];
  for (let i = 0; i < 160; i++) {
    // Ids out of step with the keys, so the id decides within each tie.
    const id = `deal_tie_${String((i * 37) % 160).padStart(3, '0')}`;
    deals.push({
      org_id: orgId, id, account_id: account, name: `Tied ${i}`, owner_id: owners[(i * 7) % owners.length]!, team_id: null, stage: 'discovery', status: i % 5 === 0 ? ('won' as const) : ('open' as const),
      amount: [1000, 2000, 2000, 5000][i % 4]!, currency: 'USD', close_date: ['2026-12-01', '2026-12-15', '2026-12-15'][i % 3]!, crm_system: 'none' as const, crm_opportunity_id: null, crm_url: null, crm_custom_fields: '{}', created_at: ANCHOR, updated_at: ANCHOR,
    });
    if (i % 3 === 0 || i % 4 === 1) {
      const ahead = i % 4 === 1;
      const meetingId = `mtg_tie_${i}`;
      meetings.push({
        org_id: orgId, id: meetingId, title: `Tied ${i}`, start_at: ANCHOR + (ahead ? 1 : -1) * (i + 1) * 3_600_000, end_at: ANCHOR + (ahead ? 1 : -1) * (i + 1) * 3_600_000 + 1_800_000,
        status: ahead ? ('scheduled' as const) : ('completed' as const), owner_id: owners[(i * 11) % owners.length]!, team_id: null, deal_id: id, account_id: account, meeting_type: 'external' as const,
        language: 'en', summary_md: null, key_points: '[]', next_steps: '[]', has_transcript: 0, transcript_reason: 'not_recorded', segment_count: 0, transcript_chars: 0, created_at: ANCHOR,
      });
      if (i % 2 === 0) people.push({ org_id: orgId, meeting_id: meetingId, id: 1, email: viewer.email, name: 'Viewer', user_id: null, side: 'seller' as const, company: null, title: null, talk_time_ms: 0 });
    }
  }
  await db.insertInto('deals').values(deals).execute();
  await db.insertInto('meetings').values(meetings).execute();
  await db.insertInto('participants').values(people).execute();
}

for (const dialect of dialectsUnderTest()) {
  describe(`deals by role (${dialect})`, () => {
    let s: Seeded;
    let world: World;
    let principals: Principal[];
    before(async () => {
      ({ s, world, principals } = await seededWorld(dialect, (s, c) => addLinkedDeals(s, c.ada, c.max, c.mia, c.vic)));
    });
    after(() => s.cleanup());

    const linkedOnly = (p: Principal) =>
      world.deals.filter((d) => dealVisibleTo(world, p, d) && d.owner_id !== p.userId && !(p.role === 'manager' && p.managedMemberIds.includes(d.owner_id)));

    it('has deals each non-admin role sees only through a linked meeting', async () => {
      const cases: [string, string[]][] = [
        [EMAILS.max, ['deal_linked_managed']],
        [EMAILS.mia, ['deal_linked_own', 'deal_linked_attended']],
        [EMAILS.vic, ['deal_linked_attended']],
      ];
      for (const [email, ids] of cases) {
        const only = linkedOnly(await s.principal(email)).map((d) => d.id);
        for (const id of ids) assert.ok(only.includes(id), `${email} ${id}`);
      }
      assert.ok(!linkedOnly(await s.principal(EMAILS.vic)).some((d) => d.id === 'deal_linked_own'));
    });

    it('has deals a viewer owns or meets ahead without attending, and a managed team\'s deal of an outsider, which those callers do not see', async () => {
      const sees = async (email: string, id: string) => dealVisibleTo(world, await s.principal(email), world.deals.find((d) => d.id === id)!);
      assert.deepEqual([await sees(EMAILS.vic, 'deal_viewer_owned'), await sees(EMAILS.ada, 'deal_viewer_owned')], [false, true]);
      assert.deepEqual([await sees(EMAILS.vic, 'deal_viewer_meets_ahead'), await sees(EMAILS.ada, 'deal_viewer_meets_ahead')], [false, true]);
      const max = await s.principal(EMAILS.max);
      const outsider = world.deals.find((d) => d.id === 'deal_team_outsider')!;
      assert.ok(max.managedTeamIds.includes(outsider.team_id!) && !max.managedMemberIds.includes(outsider.owner_id));
      assert.equal(await sees(EMAILS.max, 'deal_team_outsider'), false);
    });

    it('has deals seen only through their owner, linked to no meeting', async () => {
      for (const id of ['deal_owned_unmet', 'deal_managed_unmet']) assert.ok(!world.meetings.some((m) => m.deal_id === id), id);
      const sees = async (email: string, id: string) => dealVisibleTo(world, await s.principal(email), world.deals.find((d) => d.id === id)!);
      assert.deepEqual([await sees(EMAILS.mia, 'deal_owned_unmet'), await sees(EMAILS.max, 'deal_owned_unmet'), await sees(EMAILS.vic, 'deal_owned_unmet')], [true, true, false]);
      assert.deepEqual([await sees(EMAILS.max, 'deal_managed_unmet'), await sees(EMAILS.mia, 'deal_managed_unmet')], [true, false]);
      const lone = principals.find((p) => p.email === 'lone.manager@northwind.example')!;
      assert.deepEqual([lone.role, lone.managedTeamIds], ['manager', []]);
      assert.ok(await sees(lone.email, 'deal_lone_unmet'));
    });

    it("finds exactly the deals each user may see, one by one", async () => {
      for (const p of principals) {
        const found = [];
        for (const d of world.deals) if (await findVisibleDeal(s.store.db, p, d.id)) found.push(d.id);
        assert.deepEqual(found, world.deals.filter((d) => dealVisibleTo(world, p, d)).map((d) => d.id), `${p.email} (${p.role})`);
      }
    });

    it("lists and counts exactly the deals each user may see", async () => {
      for (const p of principals) {
        const want = inOrder(world.deals.filter((d) => dealVisibleTo(world, p, d)), 'close_date_asc');
        const seen = await everyPage(s, p, {}, 'close_date_asc');
        assert.deepEqual(seen, want, `${p.email} (${p.role})`);
        assert.equal(await countDeals(s.store.db, p, {}), want.length, `${p.email} count`);
      }
    });

    // Each filter alone and a few together, every sort, every user: the list's pages and the count
    // (which reads the deals alone, the account filters as sets of accounts) against the oracle.
    it('lists and counts exactly under each filter and sort', async () => {
      const deals = world.deals;
      const byAmount = deals.map((d) => d.amount).sort((a, b) => a - b);
      const byClose = deals.map((d) => d.close_date).sort();
      const quartile = <T>(xs: T[], q: number) => xs[Math.floor((xs.length - 1) * q)]!;
      const someTeam = deals.find((d) => d.team_id)!.team_id!;
      const someDomain = deals[Math.floor(deals.length / 2)]!.account_domain;
      const word = deals[0]!.account_name.split(/\s+/)[0]!.toLowerCase();
      const filters: DealFilters[] = [
        { status: 'open' },
        { status: 'won' },
        { stages: [...new Set(deals.map((d) => d.stage))].slice(0, 2) },
        { closeFrom: quartile(byClose, 0.25), closeTo: quartile(byClose, 0.75) },
        { amountMin: quartile(byAmount, 0.5) },
        { amountMax: quartile(byAmount, 0.5), status: 'open' },
        { ownerId: deals.find((d) => principals.some((p) => p.role === 'member' && p.userId === d.owner_id))!.owner_id },
        { teamId: someTeam },
        { search: word },
        { accountDomain: someDomain },
        { upcomingAfter: ANCHOR },
        { search: word, status: 'open', amountMin: quartile(byAmount, 0.25) },
        // Texts in most deals' names or accounts: more matches than a first page for every caller.
        { search: 'A' },
        { search: 'an', status: 'open' },
        // Each owner, the callers themselves and their managed members among them; and each team.
        ...[...new Set(deals.map((d) => d.owner_id))].sort().map((ownerId) => ({ ownerId })),
        ...[...new Set(deals.map((d) => d.team_id).filter((t) => t !== null))].sort().map((teamId) => ({ teamId: teamId! })),
        { upcomingAfter: ANCHOR, status: 'open' },
      ];
      const kinds = new Set<string>();
      for (const f of filters) {
        for (const p of principals) {
          const visible = deals.filter((d) => dealVisibleTo(world, p, d) && keeps(world, p, f, d));
          if (visible.length > 0) kinds.add(JSON.stringify(f));
          for (const sort of Object.keys(SORTS) as DealSort[]) {
            const want = inOrder(visible, sort);
            assert.deepEqual(await everyPage(s, p, f, sort), want, `${p.email} (${p.role}) ${JSON.stringify(f)} ${sort}`);
            // The tool's first page and total (a search's from one statement): the same deals, counted in all.
            const first = await firstDealsPage(s.store.db, p, f, sort, FIRST_PAGE);
            assert.deepEqual({ ids: first.rows.map((r) => r.id), total: await first.total() }, { ids: want.slice(0, FIRST_PAGE), total: want.length }, `${p.email} (${p.role}) first page ${JSON.stringify(f)} ${sort}`);
            // A search's rows come from its own statement: the same rows, every column, as a list's.
            if (f.search) assert.deepEqual(first.rows, await listDeals(s.store.db, p, f, sort, null, FIRST_PAGE), `${p.email} (${p.role}) first page rows ${JSON.stringify(f)} ${sort}`);
          }
          assert.equal(await countDeals(s.store.db, p, f), visible.length, `${p.email} (${p.role}) count ${JSON.stringify(f)}`);
        }
      }
      assert.deepEqual(filters.map((f) => JSON.stringify(f)).filter((f) => !kinds.has(f)), [], 'every filter keeps some deal for someone');
      for (const p of principals) {
        const none = await firstDealsPage(s.store.db, p, { search: 'no deal is named this' }, 'amount_desc', FIRST_PAGE);
        assert.deepEqual({ rows: none.rows, total: await none.total() }, { rows: [], total: 0 }, `${p.email}: a search that matches nothing`);
      }
    });

    /** SQLite's plan of a search's first page, a line per step. */
    const searchPlan = async (p: Principal, f: DealFilters, sort: DealSort) => {
      const q = searchFirstPageQuery(s.store.db, p, f, sort, FIRST_PAGE).compile();
      return (await s.store.db.executeQuery<{ detail: string }>({ ...q, sql: `explain query plan ${q.sql}` })).rows.map((r) => r.detail);
    };

    // SQLite only (PostgreSQL plans by cost): a search's first page reads its few deals by key, in
    // every sort, not every deal in the sort's order to spare sorting the page, among thousands of
    // deals with statistics (as after an import: with W1's 20,000 deals and a bound page size, a plain
    // join did walk them all). This test and the next are the suite's last: they add deals and
    // analyze its database.
    if (dialect === 'sqlite') it("reads a search's first page by key", async () => {
      const admin = principals.find((p) => p.role === 'admin')!;
      const account = (await s.store.db.selectFrom('accounts').select('id').where('org_id', '=', admin.orgId).executeTakeFirstOrThrow()).id;
      await addOpenDeals(s, admin.orgId, account, admin.userId, 'Many', 4000);
      await sql`analyze`.execute(s.store.db);
      for (const sort of Object.keys(SORTS) as DealSort[]) {
        const plan = await searchPlan(admin, { search: 'a' }, sort);
        const [fp, d] = [plan.indexOf('SCAN fp'), plan.findIndex((line) => /^SEARCH d USING (?:COVERING )?INDEX sqlite_autoindex_deals_1 \(org_id=\? AND id=\?\)$/.test(line))];
        assert.ok(fp >= 0 && d > fp, `${sort}:\n${plan.join('\n')}`);
      }
    });

    // Migration 0021 (SQLite only): an admin's search tests each deal's name and each account's
    // name and domain in an index, reading no row, the default open deals and every status alike.
    // Migration 0023 replaced 0021's accounts index with one that holds the same, in key order.
    if (dialect === 'sqlite') it("tests an admin's search in the search indexes, reading no deal or account row", async () => {
      await sql`analyze`.execute(s.store.db);
      const admin = principals.find((p) => p.role === 'admin')!;
      for (const [f, deals] of [[{ search: 'zz', status: 'open' }, '(org_id=? AND status=?)'], [{ search: 'zz' }, '(org_id=?)']] as const) {
        const plan = await searchPlan(admin, f, 'close_date_asc');
        assert.ok(plan.includes(`SEARCH d USING COVERING INDEX deals_search ${deals}`), plan.join('\n'));
        assert.ok(plan.includes('SEARCH sa USING COVERING INDEX accounts_label (org_id=?)'), plan.join('\n'));
      }
    });

    // PostgreSQL only: a manager of teams' count reads the policy as a walk does (deals.ts
    // countRead). As one set of ids, PostgreSQL guessed 200 deals in it whatever its size and looked
    // up each of the set's deals by key, one by one (a manager of 16 at 100,000 meetings: 11,170
    // lookups, ~2x the time of one pass). With thousands of his team's deals, statistics and the
    // visibility map (as after an import), the count does not join the deals to the set. A search's
    // matches read the policy the same way, but the set's plan for them was a hash join here and on
    // W1's dataset alike, so only the count's plan is checked. The suite's last: it adds deals.
    if (dialect === 'postgres') it("counts a manager's deals in one pass, not deal by deal", async () => {
      const max = await s.principal(EMAILS.max);
      const member = max.managedMemberIds[0]!;
      const account = (await s.store.db.selectFrom('accounts').select('id').where('org_id', '=', max.orgId).executeTakeFirstOrThrow()).id;
      const counted = await countDeals(s.store.db, max, {});
      await addOpenDeals(s, max.orgId, account, member, 'Team', 20000);
      // As after an import: statistics, and the visibility map that lets the deals' key be read from the index alone.
      await s.store.refreshStatistics();
      const plan = (await planNodes(s.store.db, countQuery(s.store.db, max, {}).compile())).map((n) => n['Node Type']);
      assert.ok(!plan.includes('Nested Loop'), `count: ${plan.join(', ')}`);
      assert.equal(await countDeals(s.store.db, max, {}), counted + 20000);
    });
  });
}

for (const dialect of dialectsUnderTest()) {
  // A manager's or viewer's page probes the deals it walks before it builds their set, and hands
  // over to the set at the last deal probed: through ties, in every sort and page size, every deal
  // once, in order, and only those the caller may see.
  describe(`deal pages through ties, from the probe to the set (${dialect})`, () => {
    let s: Seeded;
    let world: World;
    let callers: Principal[];
    before(async () => {
      let principals: Principal[];
      ({ s, world, principals } = await seededWorld(dialect, (s, c) => addTiedDeals(s, c.ada, c.vic)));
      const managers = principals.filter((p) => p.role === 'manager' && p.managedTeamIds.length > 0);
      callers = [...managers, ...principals.filter((p) => p.role === 'viewer'), principals.find((p) => p.role === 'member')!, principals.find((p) => p.role === 'admin')!];
    });
    after(() => s.cleanup());

    const filters: DealFilters[] = [{}, { status: 'open' }, { upcomingAfter: ANCHOR }, { closeFrom: '2026-12-15', closeTo: '2026-12-15', amountMin: 2000, amountMax: 2000 }];
    const SIZES = [1, 3, 7];

    it('has more matching deals than a first probe walks, and callers who see some of them', () => {
      const tied = world.deals.filter((d) => d.id.startsWith('deal_tie_'));
      assert.equal(tied.length, 160);
      // A page of `size` reads size + 1 rows, and its probe walks PROBES_PER_DEAL deals for each.
      const walked = PROBES_PER_DEAL * (Math.max(...SIZES) + 1);
      const admin = callers.find((p) => p.role === 'admin')!;
      for (const f of filters) {
        const matching = world.deals.filter((d) => keeps(world, admin, f, d)).length;
        assert.ok(matching > walked, `${JSON.stringify(f)} keeps ${matching} deals, a probe walks ${walked}`);
      }
      // Other viewers attend none of them: their pages walk every deal and find none.
      for (const p of callers.filter((p) => p.role === 'manager' || p.role === 'member' || p.email === EMAILS.vic)) {
        const seen = tied.filter((d) => dealVisibleTo(world, p, d)).length;
        assert.ok(seen > 0 && seen < tied.length, `${p.email} (${p.role}) sees ${seen} of the tied deals`);
      }
    });

    it('pages every sort through the ties at every page size, and counts alike', async () => {
      for (const f of filters) {
        for (const p of callers) {
          const visible = world.deals.filter((d) => dealVisibleTo(world, p, d) && keeps(world, p, f, d));
          for (const sort of Object.keys(SORTS) as DealSort[]) {
            for (const size of SIZES) {
              assert.deepEqual(await everyPage(s, p, f, sort, size), inOrder(visible, sort), `${p.email} (${p.role}) ${JSON.stringify(f)} ${sort} by ${size}`);
            }
          }
          assert.equal(await countDeals(s.store.db, p, f), visible.length, `${p.email} (${p.role}) count ${JSON.stringify(f)}`);
        }
      }
    });
  });
}
