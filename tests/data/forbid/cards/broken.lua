-- Broken: "form" is not a pattern's key, so the hook fails and forbids nothing.
function forbid_moves(ctx, effect)
  return { { form = "c3" } }
end
