/**
 * Upload templates (`GET /api/v2/templates/:format`): a small organizational network analysis example —
 * who goes to whom for advice in a 12-person company — with text attributes (Department, Role,
 * Location, Relationship) and numeric ones (Tenure, Engagement, Frequency), written by the same writers
 * as exports, so a template always imports as it is. The GEXF template also carries viz positions,
 * colours (by department) and sizes (by tenure).
 */
import type { EdgeJSON, NetworkJSON, NodeJSON } from '@netloom/engine';
import { FORMATS, type FormatId } from './index.ts';
import type { ExportedFile } from './types.ts';

const PEOPLE: [string, string, string, string, number, number][] = [
  ['Ava Thompson', 'Leadership', 'CEO', 'London', 9, 4.6],
  ['Ben Carter', 'Engineering', 'Engineering Lead', 'London', 6, 4.1],
  ['Chloe Nguyen', 'Engineering', 'Developer', 'Berlin', 2, 3.8],
  ['Daniel Okafor', 'Engineering', 'Developer', 'Berlin', 4, 4.4],
  ['Emma Rossi', 'Sales', 'Sales Director', 'New York', 7, 3.9],
  ['Farid Haddad', 'Sales', 'Account Executive', 'New York', 1, 3.2],
  ['Grace Kim', 'Sales', 'Account Executive', 'London', 3, 4.0],
  ['Hugo Martin', 'Operations', 'Operations Manager', 'London', 5, 3.6],
  ['Isla Fraser', 'Operations', 'Analyst', 'Berlin', 2, 4.2],
  ['Jonas Weber', 'Marketing', 'Marketing Lead', 'Berlin', 4, 3.7],
  ['Keira Patel', 'Marketing', 'Designer', 'London', 1, 4.8],
  ['Liam Brooks', 'Leadership', 'CFO', 'New York', 8, 3.5],
];

const ADVICE: [number, number, string, number][] = [
  [1, 0, 'Advice', 5], [2, 1, 'Advice', 12], [3, 1, 'Advice', 8], [2, 3, 'Collaboration', 20], [3, 2, 'Collaboration', 18],
  [4, 0, 'Advice', 4], [5, 4, 'Advice', 10], [6, 4, 'Advice', 7], [5, 6, 'Collaboration', 9], [7, 0, 'Advice', 3],
  [8, 7, 'Advice', 11], [8, 3, 'Collaboration', 6], [9, 0, 'Advice', 2], [10, 9, 'Advice', 9], [10, 2, 'Collaboration', 5],
  [11, 0, 'Advice', 6], [7, 11, 'Advice', 4], [4, 11, 'Collaboration', 3], [1, 7, 'Collaboration', 2], [6, 10, 'Collaboration', 4],
];

const COLOURS: Record<string, string> = { Leadership: '#6d28d9', Engineering: '#2563eb', Sales: '#059669', Operations: '#d97706', Marketing: '#db2777' };

export function templateNetwork(withViz: boolean): NetworkJSON {
  const nodes: NodeJSON[] = PEOPLE.map(([name, dept, role, location, tenure, engagement], i) => {
    const node: NodeJSON = { id: name, attributes: { Department: dept, Role: role, Location: location, Tenure: tenure, Engagement: engagement } };
    if (withViz) {
      const angle = (2 * Math.PI * i) / PEOPLE.length;
      node.x = Math.round(Math.cos(angle) * 1000) / 10 + 0;
      node.y = Math.round(Math.sin(angle) * 1000) / 10 + 0;
      node.attributes = { ...node.attributes, _color: COLOURS[dept], _size: 4 + tenure };
    }
    return node;
  });
  const edges: EdgeJSON[] = ADVICE.map(([s, t, rel, freq], i) => ({ id: i + 1, source: PEOPLE[s][0], target: PEOPLE[t][0], attributes: { Relationship: rel, Frequency: freq } }));
  return { nodes, edges };
}

export const TEMPLATE_NAME = 'Advice network (template)';

export async function template(format: FormatId): Promise<ExportedFile> {
  const networkJSON = templateNetwork(format === 'gexf');
  return FORMATS[format].write({
    name: TEMPLATE_NAME,
    description: 'Who goes to whom for advice: one node per person (Name), one edge per relationship (Source → Target). Replace the rows with your own data; add or remove attribute columns freely.',
    isDirected: true,
    networkJSON,
    resource: { name: TEMPLATE_NAME, description: 'Who goes to whom for advice.', isDirected: true, status: 'Private' },
  });
}
