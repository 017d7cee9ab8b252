# golden: the router module, as install_router generates it today
