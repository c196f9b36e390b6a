"""Three-reel slot machines (RULES A14, H7): titles as data, evaluation, meters and math."""
