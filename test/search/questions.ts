// The quality check of ask_documents: questions an account executive asks, each with the passage
// (document title + section heading) that answers it in the demo documents of Northwind Software.
// Phrased as people ask, not copied from the headings.
export type QualityQuestion = { question: string; title: string; heading: string };

export const QUALITY_QUESTIONS: QualityQuestion[] = [
  { question: 'Who needs to approve a 25% discount?', title: 'Discount Approval Policy', heading: 'Who approves which discount' },
  { question: 'How much does the Enterprise plan cost per seat?', title: 'Northwind Revenue Cloud Pricing Guide', heading: 'Plans and list prices' },
  { question: 'What discount do we give for a three-year commitment?', title: 'Northwind Revenue Cloud Pricing Guide', heading: 'Multi-year terms' },
  { question: 'Can a prospect get our SOC 2 Type II report?', title: 'Security and Compliance FAQ', heading: 'Certifications and audits' },
  { question: 'Can customer data be hosted in the EU?', title: 'Security and Compliance FAQ', heading: 'Data residency' },
  { question: 'Do we sign a BAA for HIPAA?', title: 'Security and Compliance FAQ', heading: 'HIPAA and regulated industries' },
  { question: 'How long are recordings and transcripts retained?', title: 'Security and Compliance FAQ', heading: 'Retention and deletion' },
  { question: 'How do I test whether my contact is really a champion?', title: 'MEDDPICC Qualification Guide', heading: 'Champion' },
  { question: 'What counts as the paper process in MEDDPICC?', title: 'MEDDPICC Qualification Guide', heading: 'Paper process' },
  { question: 'How do we win against Forecastly?', title: 'Battlecard: Northwind Revenue Cloud vs Forecastly', heading: 'Where we win against Forecastly' },
  { question: 'What landmine should I set against Dealroom AI?', title: 'Battlecard: Northwind Revenue Cloud vs Dealroom AI', heading: 'Landmines to set' },
  { question: 'How should I respond when the buyer says our price is too high?', title: 'Objection Handling: Your price is too high', heading: 'How to respond' },
  { question: 'The prospect says they can build it in-house with their data team. What do I say?', title: 'Objection Handling: We can build this ourselves', heading: 'How to respond' },
  { question: 'What does a new account executive do in the first 30 days?', title: 'New Account Executive Onboarding: 30-60-90 Day Plan', heading: 'First 30 days' },
  { question: 'What quota does a new AE carry while ramping?', title: 'New Account Executive Onboarding: 30-60-90 Day Plan', heading: 'Ramp quota' },
  { question: 'Which liability cap do we accept in contract redlines?', title: 'Contracting and Legal Redlines Playbook', heading: 'Redlines we never accept' },
  { question: 'When does a deal move to the commit forecast category?', title: 'Forecast Categories and Call Guidelines', heading: 'What moves a deal to commit' },
  { question: 'What talk ratio should sellers aim for on discovery calls?', title: 'Discovery Call Guide', heading: 'Talk ratio' },
  { question: 'What does a CFO care about when buying?', title: 'Persona Guide: Selling to the CFO', heading: 'What the CFO cares about' },
  { question: 'What are the record-keeping compliance rules in financial services?', title: 'Industry Playbook: Financial Services', heading: 'Compliance notes for Financial Services' },
  { question: 'When should customer success start the renewal conversation?', title: 'Renewal and Expansion Playbook', heading: 'Renewal timeline' },
  { question: 'Which plan includes custom AI agents?', title: 'Product One-Pager: Custom AI Agents', heading: 'Plan availability' },
  { question: 'What are the standard payment terms?', title: 'Northwind Revenue Cloud Pricing Guide', heading: 'Payment terms' },
  { question: 'When must the solutions engineer join the demo?', title: 'Demo Playbook', heading: 'Who joins' },
];

/** Questions the demo documents do not answer: ask_documents must say "not found". */
export const UNANSWERABLE = [
  'What is the airspeed velocity of an unladen swallow?',
  'What is our parental leave policy?',
  'What is the office dress code?',
  'Who won the 1998 football world cup?',
];

/** At least this many of QUALITY_QUESTIONS must have their passage among the top 3 citations. */
export const QUALITY_FLOOR = 22;
