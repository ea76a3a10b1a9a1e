"""The step-by-step protocol: its settings, the stepper that runs an episode, its baselines."""
