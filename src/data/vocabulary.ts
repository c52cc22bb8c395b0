// Words the demo generator combines: people, companies, titles, products, competitors.
export const FIRST_NAMES = [
  'Dana', 'Leo', 'Priya', 'Marcus', 'Sofia', 'Ethan', 'Hannah', 'Omar', 'Grace', 'Lucas', 'Aisha', 'Noah', 'Chloe', 'Mateo',
  'Yuki', 'Daniel', 'Elena', 'Samuel', 'Zara', 'Oliver', 'Ines', 'Jonas', 'Maya', 'Victor', 'Nora', 'Felix', 'Amara', 'Hugo',
  'Lena', 'Ravi', 'Clara', 'Tomas', 'Ivy', 'Mohammed', 'Julia', 'Kenji', 'Layla', 'Andre', 'Freya', 'Diego', 'Anika', 'Rowan',
] as const;

export const LAST_NAMES = [
  'Reyes', 'Chen', 'Patel', 'Okafor', 'Lindqvist', 'Moreau', 'Novak', 'Haddad', 'Kowalski', 'Tanaka', 'Murphy', 'Schmidt',
  'Silva', 'Ibrahim', 'Andersen', 'Rossi', 'Nguyen', 'Fischer', 'Garcia', 'Kim', 'Dubois', 'Walsh', 'Costa', 'Bauer', 'Sato',
  'Hughes', 'Larsen', 'Mendes', 'Petrov', 'Ortiz', 'Byrne', 'Yilmaz', 'Adeyemi', 'Jensen', 'Romano', 'Park',
] as const;

export const COMPANY_PREFIX = [
  'Acme', 'Bluefin', 'Cedar', 'Delta', 'Ember', 'Fjord', 'Granite', 'Harbor', 'Iris', 'Juniper', 'Keystone', 'Lumen', 'Meridian',
  'Nimbus', 'Orchid', 'Pioneer', 'Quarry', 'Redwood', 'Summit', 'Tidal', 'Umber', 'Vertex', 'Willow', 'Xeno', 'Yarrow', 'Zephyr',
  'Atlas', 'Beacon', 'Cobalt', 'Drift', 'Evergreen', 'Falcon', 'Glacier', 'Helix', 'Ion', 'Jade', 'Kinetic', 'Lattice',
] as const;

export const COMPANY_SUFFIX = [
  'Logistics', 'Health', 'Robotics', 'Foods', 'Energy', 'Analytics', 'Bank', 'Insurance', 'Retail', 'Labs', 'Systems', 'Media',
  'Pharma', 'Freight', 'Capital', 'Manufacturing', 'Telecom', 'Hotels', 'Education', 'Security',
] as const;

export const BUYER_TITLES = [
  'VP of Sales', 'Chief Revenue Officer', 'CFO', 'Head of Revenue Operations', 'IT Director', 'Procurement Manager',
  'Director of Sales Enablement', 'Sales Operations Manager', 'Head of Customer Success', 'CTO', 'Security Lead', 'VP Finance',
] as const;

export const SELLER_TITLES = ['Account Executive', 'Senior Account Executive', 'Sales Development Rep', 'Solutions Engineer', 'Customer Success Manager'] as const;

export const COMPETITORS = ['Gong', 'Chorus', 'Clari', 'Salesloft', 'Outreach'] as const;

export const PRODUCT = 'Northwind Revenue Cloud';

export const STAGES = ['discovery', 'demo', 'proposal', 'negotiation', 'closed_won', 'closed_lost'] as const;
export type Stage = (typeof STAGES)[number];

export type CallType = 'discovery' | 'demo' | 'pricing' | 'negotiation';

/** Call type weights by deal stage: early deals have discovery calls, late ones negotiation calls. */
export const CALL_TYPES_BY_STAGE: Record<Stage, readonly (readonly [CallType, number])[]> = {
  discovery: [['discovery', 8], ['demo', 2]],
  demo: [['discovery', 2], ['demo', 7], ['pricing', 1]],
  proposal: [['demo', 3], ['pricing', 6], ['negotiation', 1]],
  negotiation: [['pricing', 3], ['negotiation', 7]],
  closed_won: [['demo', 2], ['pricing', 3], ['negotiation', 5]],
  closed_lost: [['discovery', 3], ['demo', 4], ['pricing', 3]],
};

export const CALL_TITLES: Record<CallType, readonly string[]> = {
  discovery: ['Discovery call', 'Intro and discovery', 'Initial discovery'],
  demo: ['Product demo', 'Platform walkthrough', 'Technical demo'],
  pricing: ['Pricing review', 'Commercial proposal walkthrough', 'Business case review'],
  negotiation: ['Contract negotiation', 'Redlines and terms', 'Final commercial terms'],
};

export const INTERNAL_TITLES = ['Weekly pipeline review', 'Deal strategy session', 'Coaching 1:1', 'Forecast call'] as const;
