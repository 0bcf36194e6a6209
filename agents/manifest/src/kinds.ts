// What the stack's registry and the authority need of this agent without loading it (exceljs,
// csv-parse, the sheet reader): the kind it learns. `@learnables/manifest-agent/kinds`.
export { columnMappingKind } from './column-mapping.ts';
