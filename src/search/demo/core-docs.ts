// Hand-written sales-enablement documents of the demo organization (one each). `{company}` and
// `{product}` are filled per organization. Each `##` heading is a passage location in citations.
export type CoreDoc = { key: string; title: string; source: 'google_drive' | 'onedrive' | 'highspot' | 'upload'; body: string };

export const CORE_DOCS: CoreDoc[] = [
  {
    key: 'pricing-guide',
    title: '{product} Pricing Guide',
    source: 'highspot',
    body: `## Plans and list prices
{product} is sold per seat per year in three plans. Starter is $600 per seat per year and covers call recording, transcripts and AI notes for teams up to 25 seats. Growth is $1,080 per seat per year and adds deal boards, coaching scorecards and the Salesforce and HubSpot integrations. Enterprise is $1,500 per seat per year and adds forecasting, custom AI agents, SSO with SCIM provisioning and a named customer success manager.

## Minimums and seat counts
The Growth plan has a minimum of 10 seats and Enterprise a minimum of 50 seats. Viewer seats for managers and executives who only read reports are free up to 20 percent of paid seats. Seats can be added at any time and are co-termed to the current contract year at the pro-rated price.

## Multi-year terms
A two-year commitment earns 6 percent off the per-seat price and a three-year commitment earns 12 percent off. Multi-year deals are invoiced annually in advance; prepaying all years upfront is accepted but earns no additional discount.

## Implementation and services
Standard onboarding is included for Growth and Enterprise. A paid implementation package of $15,000 covers CRM field mapping, custom scorecards and admin training for deployments above 200 seats. Professional services beyond the package are billed at $220 per hour.

## Payment terms
Standard payment terms are net 30 from invoice, billed annually in advance. Net 45 or net 60 needs deal desk approval, and quarterly billing is only available on Enterprise contracts above $250,000 annual contract value with a 3 percent uplift.`,
  },
  {
    key: 'discount-policy',
    title: 'Discount Approval Policy',
    source: 'google_drive',
    body: `## Who approves which discount
Account executives may give up to 10 percent off list price without approval. Discounts from 10 to 20 percent need approval from the sales manager. Discounts from 20 to 30 percent need approval from the regional VP of Sales. Anything above 30 percent needs approval from the CRO and the CFO and is reviewed in the weekly deal desk meeting.

## How to request approval
Submit the request in the deal desk channel with the opportunity link, the competitor in play, the customer's budget and the mutual action plan. Requests without a documented business case are returned. Approvals are valid for 30 days; after that the quote must be re-approved.

## Non-standard terms
Price locks on renewal, uncapped renewal increases, custom termination for convenience and most-favored-customer clauses are non-standard terms. They always need deal desk and legal approval, regardless of the discount level.

## Discount hygiene
Never lead with a discount. Trade every concession for something of value: a multi-year term, a case study, a reference call, a faster signature date or a larger seat count. End-of-quarter discounts must be tied to a signature date in the quarter, written into the quote expiry.`,
  },
  {
    key: 'security-faq',
    title: 'Security and Compliance FAQ',
    source: 'highspot',
    body: `## Certifications and audits
{company} holds a SOC 2 Type II report covering security, availability and confidentiality, renewed every year, and an ISO 27001 certificate. Prospects can request the SOC 2 report under NDA through the trust center; the account executive sends the NDA through the contract tool. An independent penetration test runs twice a year and a summary letter is available on request.

## Data residency
Customer data is hosted on AWS in the United States (us-east-1) by default. Customers can choose EU hosting in Frankfurt (eu-central-1) at no extra cost on Enterprise plans; the region is chosen at onboarding and cannot be changed later without a migration project.

## Encryption
Data is encrypted in transit with TLS 1.2 or higher and at rest with AES-256. Encryption keys are managed in AWS KMS and rotated yearly. Customer-managed keys (bring your own key) are on the roadmap but not available today; do not promise them.

## Retention and deletion
Recordings and transcripts are kept for 24 months by default. Admins can set a shorter retention period, down to 30 days, per workspace. When a contract ends, all customer data is deleted within 30 days and a deletion certificate is issued on request.

## Privacy and GDPR
{company} signs a data processing agreement (DPA) with standard contractual clauses for every customer. The list of subprocessors is published in the trust center, and customers are notified 30 days before a new subprocessor is added. Recording consent announcements can be configured per country.

## Single sign-on and access control
Enterprise plans support SAML and OIDC single sign-on with Okta, Microsoft Entra ID and Google Workspace, plus SCIM user provisioning. Role-based access control limits who can see recordings; meeting details can be restricted to participants.

## HIPAA and regulated industries
{company} does not sign business associate agreements (BAA) and the product is not intended for protected health information. Healthcare prospects may use it for sales conversations that do not include patient data.`,
  },
  {
    key: 'meddpicc-guide',
    title: 'MEDDPICC Qualification Guide',
    source: 'google_drive',
    body: `## Why we qualify with MEDDPICC
Every opportunity above $50,000 annual contract value is qualified with MEDDPICC before it moves to the proposal stage. The scorecard in {product} rates each letter from 0 to 3, and managers review any deal scoring under 15 out of 24 in the weekly pipeline review.

## Metrics
Metrics are the measurable business outcomes the buyer expects, in their own numbers: ramp time reduced from six months to four, win rate up 5 points, forecast accuracy within 10 percent. Ask "How will you measure success twelve months from now?" and write the answer into the mutual action plan.

## Economic buyer
The economic buyer is the person who can approve the spend without anyone else's signature, usually the CRO or the CFO for deals above $100,000. You have met the economic buyer only when you have spoken to them directly; a champion's summary does not count.

## Decision criteria
Decision criteria are the technical, business and commercial requirements the buyer uses to compare vendors. Influence them early: propose criteria where we are strong, such as coaching scorecards and forecast accuracy.

## Decision process
The decision process is the sequence of steps, people and dates from evaluation to signature. Map it backwards from the go-live date and confirm it with the champion.

## Paper process
The paper process covers legal review, security review, procurement and signature. Ask who signs, how long legal review usually takes and whether a security questionnaire is required. Paper process delays are the most common reason deals slip out of the quarter.

## Identify pain
Identified pain is the business problem the buyer admits to, its cost, and what happens if nothing changes. Pain that only you describe is not identified pain.

## Champion
A champion has power and influence, wants us to win and is actively selling for us when we are not in the room. Test a champion by asking them to arrange a meeting with the economic buyer. A friendly contact who will not do this is a coach, not a champion.

## Competition
Competition includes other vendors, an in-house build and doing nothing. Ask who else they are evaluating and why; the status quo is the most frequent competitor.`,
  },
  {
    key: 'bant-guide',
    title: 'BANT Qualification for Inbound Leads',
    source: 'google_drive',
    body: `## When to use BANT
Sales development representatives use BANT to qualify inbound leads before booking a discovery call with an account executive. MEDDPICC takes over once the opportunity is created.

## Budget
Ask whether budget is allocated this fiscal year and roughly how much. A lead with no budget can still be qualified if the pain is strong and the buyer controls next year's budget cycle.

## Authority
Identify who will sign. Leads from individual contributors are accepted only if they can introduce a director or above within two weeks.

## Need
The need must map to a use case we solve: call recording and coaching, deal inspection, or forecasting. Leads that only want a dialer are disqualified and routed to a partner.

## Timeline
A qualified lead plans to decide within two quarters. Leads further out go into the nurture sequence and are re-contacted 60 days later.

## Handoff to the account executive
The SDR books the discovery call, writes a handoff note with the four BANT answers in the CRM and joins the first ten minutes of the call to introduce the account executive.`,
  },
  {
    key: 'onboarding-30-60-90',
    title: 'New Account Executive Onboarding: 30-60-90 Day Plan',
    source: 'onedrive',
    body: `## First 30 days
In the first 30 days a new account executive completes product certification, shadows at least 10 customer calls in {product}, learns the pricing guide and the discount approval policy, and delivers the standard demo to their manager.

## Days 31 to 60
Between day 31 and day 60 the account executive runs discovery calls with a manager or senior peer listening, builds a pipeline of at least three times their first quarterly quota, and passes the MEDDPICC certification with a score of 80 percent or more.

## Days 61 to 90
Between day 61 and day 90 the account executive owns deals end to end, presents one deal in the weekly pipeline review and receives a coaching scorecard review of three recorded calls.

## Ramp quota
New account executives carry 25 percent of full quota in their first quarter, 50 percent in their second quarter and full quota from their third quarter.

## Tools and access
On day one new hires receive access to Salesforce, {product}, the contract tool, Highspot and the deal desk channel. Request missing access from IT through the help desk portal.`,
  },
  {
    key: 'deal-desk',
    title: 'Deal Desk Process',
    source: 'google_drive',
    body: `## What the deal desk does
The deal desk reviews quotes, non-standard terms and discount requests, and prepares order forms. It meets every Tuesday and Thursday; urgent requests in the last two weeks of a quarter are reviewed daily.

## Quote approval
Quotes are built in Salesforce CPQ. A quote within standard pricing and terms is auto-approved. Any discount above 10 percent, custom payment terms or non-standard legal language routes the quote to the deal desk.

## Order forms and signatures
Order forms are generated from the approved quote and sent for signature through the contract tool. Never edit a PDF order form by hand: changes must go back through the quote so the CRM stays accurate.

## Service level
The deal desk answers standard requests within one business day and non-standard requests within three business days.`,
  },
  {
    key: 'legal-redlines',
    title: 'Contracting and Legal Redlines Playbook',
    source: 'onedrive',
    body: `## Our paper first
Always send our master subscription agreement (MSA) first. Working on the customer's paper adds four to six weeks and needs legal approval before you agree to it.

## Common redlines we accept
We accept mutual confidentiality, a cap on annual price increases of 7 percent, governing law in the customer's country for EU customers, and a 30-day cure period for material breach.

## Redlines we never accept
We never accept unlimited liability, uncapped indemnities, source code escrow or the right to audit our data centers on site. The liability cap is 12 months of fees paid, with a higher cap of two times fees for data protection breaches.

## Turnaround times
Legal reviews a first set of redlines within five business days. Start legal review at least three weeks before the target signature date.`,
  },
  {
    key: 'renewal-playbook',
    title: 'Renewal and Expansion Playbook',
    source: 'google_drive',
    body: `## Renewal timeline
Customer success starts the renewal conversation 120 days before the contract end date. At 90 days the renewal quote is sent; at 60 days any risk is escalated to the account's executive sponsor.

## Renewal pricing
Renewals increase by 5 percent per year unless the contract caps the increase. Multi-year renewals keep the current price for the whole term.

## Expansion signals
Expansion signals are new teams hired in sales or customer success, seat utilization above 90 percent, a new CRO, and requests for forecasting from finance.

## At-risk accounts
An account is at risk when weekly active users drop below 50 percent of seats for four weeks, the champion leaves, or support escalations stay open for more than 14 days. At-risk accounts get a recovery plan reviewed by the VP of Customer Success.`,
  },
  {
    key: 'discovery-guide',
    title: 'Discovery Call Guide',
    source: 'highspot',
    body: `## Before the call
Research the account in the CRM and on LinkedIn, review previous meetings in {product}, and write three hypotheses about the buyer's pain. Send an agenda the day before.

## Opening the call
Confirm the time, state the goal of the call, and ask the buyer what they want to get out of it. Keep the opening under three minutes.

## Discovery questions
Good discovery questions are open and specific: How do you coach reps today? How do you know which deals will close this quarter? What happens when a top performer leaves? How long does it take a new rep to close their first deal?

## Talk ratio
Aim for the buyer to talk at least 60 percent of the time during discovery. {product} shows talk ratio per call; calls where the seller talks more than 55 percent are flagged for coaching.

## Closing the discovery call
End with a concrete next step on the calendar, usually a tailored demo with the people who will evaluate the product, and summarize the pain in the buyer's words in the follow-up email within 24 hours.`,
  },
  {
    key: 'demo-playbook',
    title: 'Demo Playbook',
    source: 'highspot',
    body: `## Tailor the demo
Never run a generic demo. Start from the three pains found in discovery and show one workflow for each. A demo runs 30 minutes with 15 minutes left for questions.

## Demo environment
Use the shared demo workspace with the sample data set. Reset it after every demo and never show another customer's name or data on screen.

## Who joins
The solutions engineer joins every demo for deals above $75,000. Bring the solutions engineer in earlier when the buyer asks about integrations, security or APIs.

## After the demo
Send the recording, a one-page summary and the proposed evaluation plan within one business day.`,
  },
  {
    key: 'mutual-action-plan',
    title: 'Mutual Action Plan Template and Guidance',
    source: 'google_drive',
    body: `## What a mutual action plan is
A mutual action plan lists every step, owner and date between today and go-live, agreed with the buyer. It is shared in a document both sides can edit.

## When to introduce it
Introduce the mutual action plan after the demo, once the buyer agrees there is a problem worth solving. Deals with a signed-off mutual action plan close 30 percent faster in our data.

## What it contains
A good plan contains the evaluation criteria, the security review, legal review, the procurement steps, the signature date and the kickoff date, each with an owner on the buyer side.`,
  },
  {
    key: 'forecasting-guidelines',
    title: 'Forecast Categories and Call Guidelines',
    source: 'onedrive',
    body: `## Forecast categories
Commit means the account executive is confident the deal signs this quarter and the paper process is under way. Best case means the deal can close this quarter if one open risk is resolved. Pipeline means the deal is qualified but will likely close later.

## What moves a deal to commit
A deal moves to commit only when the economic buyer has confirmed the budget, the decision process is mapped in the mutual action plan and legal review has started.

## The weekly forecast call
The forecast call runs every Monday at 9:00. Each manager presents commit and best case changes since last week; every slipped deal needs a reason and a new date.`,
  },
  {
    key: 'cold-outreach',
    title: 'Cold Outreach Sequences and Email Templates',
    source: 'highspot',
    body: `## The standard outbound sequence
The standard outbound sequence has eight touches over 21 days: four emails, three calls and one LinkedIn message. Stop the sequence as soon as the prospect replies.

## First email template
Subject: coaching at {account}. Keep the first email under 90 words, reference one trigger event such as a new sales leader or a hiring spree, and end with one question rather than a meeting request.

## Cold call opener
Open with permission: "You weren't expecting my call; can I take 30 seconds to tell you why I called, and you decide if we keep talking?" Then name the trigger and the problem other sales leaders describe.

## Follow-up after no answer
After three touches without an answer, send a short break-up email that asks whether the problem is simply not a priority this quarter.`,
  },
  {
    key: 'cs-handoff',
    title: 'Sales to Customer Success Handoff',
    source: 'google_drive',
    body: `## When the handoff happens
The handoff meeting happens within five business days of signature. The account executive, the customer success manager and the solutions engineer attend.

## What the handoff note contains
The handoff note contains the metrics from MEDDPICC, the champion and economic buyer, the promised integrations, any non-standard terms and the go-live date in the mutual action plan.

## Kickoff with the customer
Customer success runs the kickoff call with the customer within ten business days of signature and confirms the success plan and the first 90-day milestones.`,
  },
];
