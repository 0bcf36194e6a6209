export { CustomerMarks, customerMarksKind, compileMark, MARK_PLACES } from './customer-marks.ts';
export type { Mark, MarkPlace, CustomerState } from './customer-marks.ts';
