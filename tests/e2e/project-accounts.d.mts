export declare const ACCOUNT_PROJECTS: string[];
export declare function accountFor<T extends { id: string; email: string }>(account: T, project: string): T;
