// The parts of a decoded (tolerant) session document that the viewer reads; the tolerant schema's output fits this shape.
// Children are any items because older documents may nest freely; the canonical nesting is a subset.

export interface PlanBlockType {
  id: string;
  name: string;
  color: string;
}

export interface PlanPerson {
  id: string;
  name: string;
  role: string;
}

export interface PlanBlock {
  type: 'block';
  id: string;
  title: string;
  duration: number;
  blockTypeId: string | null;
  personIds: string[];
  description: string;
  notes: string;
  material: string;
  fixedStartTime: string | null;
  laneIndex: number;
}

/** Fields every container (group, breakout) has. */
interface PlanContainerFields {
  id: string;
  title: string;
  duration: number;
  description: string;
  notes: string;
  fixedStartTime: string | null;
  children: PlanItem[];
}

export interface PlanBreakout extends PlanContainerFields {
  type: 'breakout';
  lanes: number;
  sameInAllBreakouts: boolean;
  lanePersons: Record<string, string[]>;
}

export interface PlanGroup extends PlanContainerFields {
  type: 'group';
}

export type PlanItem = PlanBlock | PlanGroup | PlanBreakout;

export interface Plan {
  version: string;
  workshop: { title: string; description: string; date: string | null; startTime: string | null };
  blockTypes: PlanBlockType[];
  persons: PlanPerson[];
  items: PlanItem[];
}
