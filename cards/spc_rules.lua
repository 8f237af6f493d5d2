-- Saving Private Checkers: the deck's own rules (cards/spc_rules.yaml).
-- Acts for the player to move: ctx:player() is whoever moved.

local DIAGONALS = { "ne", "nw", "se", "sw" }

local function other(player)
  return player == "dark" and "light" or "dark"
end

-- Dark's home row is rank 1, Light's rank 8 (R2.2; the board never turns here).
local function home_rank(player)
  return player == "dark" and "1" or "8"
end

-- S17: a queen crowned is a plain king. The rule's own crownings (S16, and a
-- turned queen on its new far row) are not told to its own handlers, so each
-- place that may crown calls this too.
local function plain_king(ctx, at)
  local checker = ctx:checker(at)
  if checker and checker.kind ~= "pawn" and ctx:has_marker("queen", at) then
    ctx:remove_marker("queen", at)
  end
end

-- S3: each half-deck shuffled unseen, 16 cards face down on its owner's half,
-- the other 10 to the stockpile (S4), where their owner sees them.
function game_begins(ctx)
  for _, player in ipairs({ "dark", "light" }) do
    ctx:shuffle_items("half_deck", player)
    local cards = ctx:items("half_deck", player)
    local squares = ctx:squares{ colour = "dark", half = player }
    for i, sq in ipairs(squares) do
      ctx:move_item(cards[i], { square = sq })
    end
    for i = #squares + 1, #cards do
      ctx:move_item(cards[i], { zone = "stockpile", owner = player, at = "bottom" })
    end
  end
end

-- S8: the mover discards a stockpile card; true when the piece survives.
local function outbid(ctx, me, card, at)
  local stock = ctx:items("stockpile", me)
  local given = 0
  if #stock > 0 then
    local pick = stock[1]
    if #stock > 1 then
      pick = ctx:ask_option("Black " .. card.id .. " on " .. at .. ": discard which stockpile card?", stock)
    end
    ctx:move_item(pick, { zone = "discards", owner = me })
    given = ctx:item(pick).value
  end
  return card.value <= given
end

-- S7-S9, S16-S18: every landing turns the card under it.
function on_landed(ctx, event)
  local at = event.at
  local under = ctx:item_at(at)
  if not under then return end
  if under.face == "up" then                  -- S9
    ctx:turn_item(at, "down")
    return
  end
  local card = ctx:item(ctx:turn_item(at, "up"))   -- S7
  local me = ctx:player()
  if card.tags.black and not outbid(ctx, me, card, at) then
    ctx:remove_checker(at)                    -- S8: to the surplus; the move ends
    return
  end
  local checker = ctx:checker(at)
  if card.tags.king then                      -- S16
    if checker.kind == "pawn" and ctx:pool(me, "surplus") > 0 then
      ctx:crown(at)
      plain_king(ctx, at)
      ctx:end_move()
    end
  elseif card.tags.queen then                 -- S17
    if checker.kind == "pawn" and not ctx:has_marker("queen", at) then
      ctx:place_marker("queen", at)
      ctx:end_move()
    end
  elseif card.tags.jack then                  -- S18
    if not ctx:has_marker("footman", at) then
      ctx:place_marker("footman", at)
      ctx:end_move()
    end
  end
end

-- S15: a capture of a checker on a face-up black queen or red jack marks the
-- capturer, which changes sides when its move ends: at the end of the turn
-- (on_turn_ended), which in this deck follows the move at once, whatever
-- order the move's own events come in.
function on_captured(ctx, event, effect)
  local under = ctx:item_at(event.at)
  if not (under and under.face == "up" and event.capturer) then return end
  local card = ctx:item(under.id)
  if (card.tags.queen and card.tags.black) or (card.tags.jack and card.tags.red) then
    ctx:set_effect_data{ turncoat = event.capturer }
  end
end

function on_turn_ended(ctx, event, effect)
  local turncoat = effect.data.turncoat
  if turncoat then
    ctx:set_effect_data{}
    local at = ctx:find_checker(turncoat)     -- nil once blown up
    if at then
      ctx:set_owner(at, other(ctx:checker(at).owner))
      plain_king(ctx, at)
    end
  end
end

-- S18: a strike (a capture in place) spends the footman status.
function on_moved(ctx, event)
  if event.from == event.to and ctx:has_marker("footman", event.to) then
    ctx:remove_marker("footman", event.to)
  end
end

-- S17: a queen crowned on her far row is a plain king.
function on_crowned(ctx, event)
  plain_king(ctx, event.at)
end

-- A queen's capture chains that take at least one checker backward (the
-- kernel lists her forward ones): every hop over an opposing checker not yet
-- taken to an empty square, on while she can, ending on her far row (R4.4).
local function queen_chains(ctx, me, path, taken, backward, moves)
  local at = path[#path]
  local far = at:sub(2) == home_rank(other(me))
  local went_on = false
  if not (far and #path > 1) then
    for _, dir in ipairs(DIAGONALS) do
      local over = ctx:neighbour(at, dir)
      local land = over and ctx:neighbour(over, dir)
      local prey = over and ctx:checker(over)
      if land and prey and prey.owner ~= me and not taken[over]
          and (ctx:is_empty(land) or land == path[1]) then
        local back = (me == "dark") == (dir:sub(1, 1) == "s")
        path[#path + 1] = land
        taken[over] = #path - 1
        queen_chains(ctx, me, path, taken, backward or back, moves)
        taken[over] = nil
        path[#path] = nil
        went_on = true
      end
    end
  end
  if not went_on and backward then
    local takes = {}
    for sq, hop in pairs(taken) do takes[hop] = sq end
    moves[#moves + 1] = { path = { table.unpack(path) }, takes = takes }
  end
end

function extra_moves(ctx, effect)
  local me = ctx:player()
  local moves = {}
  -- S12: a king on its own home row may leave the board.
  for _, sq in ipairs(ctx:checker_squares{ owner = me, kind = "king" }) do
    if sq:sub(2) == home_rank(me) then
      moves[#moves + 1] = { path = { sq }, off = true }
    end
  end
  -- S18: a footman strikes an adjacent opposing checker without moving.
  for _, sq in ipairs(ctx:markers("footman")) do
    if ctx:checker(sq).owner == me then
      for _, dir in ipairs(DIAGONALS) do
        local target = ctx:neighbour(sq, dir)
        local prey = target and ctx:checker(target)
        if prey and prey.owner ~= me then
          moves[#moves + 1] = { path = { sq, target, sq }, takes = { target } }
        end
      end
    end
  end
  -- S17: a queen captures backward too.
  for _, sq in ipairs(ctx:markers("queen")) do
    local queen = ctx:checker(sq)
    if queen.owner == me and queen.kind == "pawn" then
      queen_chains(ctx, me, { sq }, {}, false, moves)
    end
  end
  return moves
end

-- S14: most rescued is survival, most captured tactical, both total; pieces
-- are counted (a king two).
function verdict(ctx, why, who)
  local function most(pool)
    local d, l = ctx:pool("dark", pool), ctx:pool("light", pool)
    if d > l then return "dark" elseif l > d then return "light" end
    return nil
  end
  local survival, tactical = most("rescued"), most("captured")
  if survival and tactical then
    if survival == tactical then return { winner = survival, reason = "total" } end
    return { reason = "split" }
  end
  if survival then return { winner = survival, reason = "survival" } end
  if tactical then return { winner = tactical, reason = "tactical" } end
  return { reason = "even" }
end
