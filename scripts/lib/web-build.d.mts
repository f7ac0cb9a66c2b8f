export declare function webBuildInputs(): string;
export declare function buildWebOnce(): number;
