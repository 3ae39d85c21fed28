import ts from 'typescript';

/**
 * Every name a module exports as the compiler sees it, values and types alike: what a caller can
 * import from an entry of the package, read from its source.
 */
export function entryExports(file: string): string[] {
  const program = ts.createProgram([file], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2023,
    noEmit: true,
    // exports are resolved, not type-checked: no standard library, no @types
    noLib: true,
    types: [],
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file);
  const module = source && checker.getSymbolAtLocation(source);
  if (!module) throw new Error(`${file}: not a module`);
  return checker.getExportsOfModule(module).map((s) => s.getName());
}
