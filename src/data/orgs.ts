// The two demo organizations. Northwind Software is the seller with the full dataset; Globex is
// smaller and exists to prove isolation. The fixed accounts are the ones the README lists.
import type { OrgSpec } from './plan.ts';

export const NORTHWIND: OrgSpec = {
  key: 'northwind',
  name: 'Northwind Software',
  domain: 'northwind.example',
  currency: 'USD',
  teams: [
    { key: 'ee', name: 'Enterprise East', parentKey: null },
    { key: 'strategic', name: 'Strategic Accounts', parentKey: 'ee' },
    { key: 'west', name: 'Enterprise West', parentKey: null },
    { key: 'mid', name: 'Mid-Market', parentKey: null },
    { key: 'smb', name: 'SMB', parentKey: null },
  ],
  fixedUsers: [
    { local: 'ada.admin', name: 'Ada Admin', role: 'admin', teamKey: null, isManager: false },
    { local: 'max.manager', name: 'Max Manager', role: 'manager', teamKey: 'ee', isManager: true },
    { local: 'mia.member', name: 'Mia Member', role: 'member', teamKey: 'ee', isManager: false },
    { local: 'vic.viewer', name: 'Vic Viewer', role: 'viewer', teamKey: 'ee', isManager: false },
  ],
  generated: [
    { teamKey: 'ee', managers: 0, members: 7, viewers: 0 },
    { teamKey: 'strategic', managers: 1, members: 5, viewers: 0 },
    { teamKey: 'west', managers: 1, members: 6, viewers: 1 },
    { teamKey: 'mid', managers: 1, members: 7, viewers: 0 },
    { teamKey: 'smb', managers: 1, members: 5, viewers: 1 },
  ],
};

export const GLOBEX: OrgSpec = {
  key: 'globex',
  name: 'Globex',
  domain: 'globex.example',
  currency: 'EUR',
  teams: [
    { key: 'sales', name: 'Globex Sales', parentKey: null },
    { key: 'partners', name: 'Partnerships', parentKey: null },
  ],
  fixedUsers: [
    { local: 'gia.admin', name: 'Gia Admin', role: 'admin', teamKey: null, isManager: false },
    { local: 'gus.member', name: 'Gus Member', role: 'member', teamKey: 'sales', isManager: false },
  ],
  generated: [
    { teamKey: 'sales', managers: 1, members: 3, viewers: 1 },
    { teamKey: 'partners', managers: 1, members: 2, viewers: 0 },
  ],
};

/** The fixed demo accounts, as printed by `npm start` and listed in the README. */
export const DEMO_ACCOUNTS = [
  { email: 'ada.admin@northwind.example', role: 'admin', org: 'Northwind Software' },
  { email: 'max.manager@northwind.example', role: 'manager', org: 'Northwind Software' },
  { email: 'mia.member@northwind.example', role: 'member', org: 'Northwind Software' },
  { email: 'vic.viewer@northwind.example', role: 'viewer', org: 'Northwind Software' },
  { email: 'gia.admin@globex.example', role: 'admin', org: 'Globex' },
  { email: 'gus.member@globex.example', role: 'member', org: 'Globex' },
] as const;
