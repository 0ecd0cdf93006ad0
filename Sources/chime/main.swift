import ChimeCLI
