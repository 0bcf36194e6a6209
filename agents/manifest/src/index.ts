export { ColumnMapping, columnMappingKind, sameHeading } from './column-mapping.ts';
export type { MappingState } from './column-mapping.ts';
