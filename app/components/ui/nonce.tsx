import { createContext, useContext } from "react";

// The CSP nonce, rendered on the server. Browsers hide nonce attributes from the DOM, so the client gets "".
const NonceContext = createContext("");
export const NonceProvider = NonceContext.Provider;
export const useNonce = () => useContext(NonceContext);
