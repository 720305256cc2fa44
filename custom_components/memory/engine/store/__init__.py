"""Memory stores: the protocol with the visibility rule (base) and the backends."""
