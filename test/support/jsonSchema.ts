import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

type Json = Record<string, any>;

// ajv-formats is CommonJS: its function is the module's default under NodeNext.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => Ajv2020;

/**
 * A validator of one schema of an OpenAPI 3.1 document, by a JSON Schema 2020-12 validator that
 * knows nothing of the server's zod schemas (Ajv, with the `format`s OpenAPI names). zod's own
 * fromJSONSchema was used before; it cannot read `dependentRequired` or `not`, so the document
 * could not state every rule the server enforces and be checked.
 */
export const documentValidator = (doc: Json) => {
  const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
  ajv.addSchema({ $id: 'openapi:document', components: doc.components });
  return (schema: Json) => {
    const validate = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi:document#/components/')));
    return {
      safeParse: (value: unknown) => {
        const success = validate(value) as boolean;
        return { success, error: success ? undefined : { issues: validate.errors ?? [] } };
      },
    };
  };
};
