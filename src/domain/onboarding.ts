// Entry point of the onboarding domain (the code lives in ./onboarding/).
export * from './onboarding/index.js';
