export declare const IMPORT_MAX_BYTES: number;
export declare const IMPORT_ROW_LIMIT: number;
export declare function largestImportRequest(options?: { bytes?: number; rows?: number; tag?: string }): {
  body: string;
  rows: number;
  bytes: number;
};
