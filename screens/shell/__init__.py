"""The game shell: what every game screen shares (docs/design.md, "The screens")."""
