// Spec section 8, checkout errors (title 'Signup Error'), and the welcome toast of section 4.
export const CHECKOUT_ERROR_TITLE = "Signup Error";
export const CHECKOUT_ERRORS = {
  invalid_email: "Invalid email address. Please check and try again.",
  config_error: "Service temporarily unavailable. Please contact support.",
  rate_limited: "Please wait a minute before trying again.",
  failed: "Couldn't start checkout. Please try again or contact support.",
} as const;

/**
 * The welcome toast greets, and says nothing more: the welcome page itself says the trial has started (or the
 * subscription is active), and saying it twice on one screen is one time too many.
 */
export const WELCOME_TOAST = { title: "Welcome to Porchlight!" } as const;

// Spec section 5, the captcha on the trial step.
export const VERIFICATION_REQUIRED = { title: "Verification Required", description: "Please complete the security verification." } as const;
