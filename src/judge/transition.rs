//! Moving from one phase to the next: skipping empty phases, updating ownership.
